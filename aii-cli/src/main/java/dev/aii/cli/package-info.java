/** The aii command line. */
package dev.aii.cli;
