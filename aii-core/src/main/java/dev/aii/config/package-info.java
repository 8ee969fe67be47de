/**
 * The allow file ({@code ~/.config/aii/allow}): loading it into the one
 * effective rule set, seeding and appending "always" rules safely across
 * processes, listing and resetting it; and the real file-system view that
 * resolution uses. {@link dev.aii.config.AllowFile} is the entry point.
 */
package dev.aii.config;
