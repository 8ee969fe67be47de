import Foundation
import FoundationModels

/// Builds the tool's GenerationSchema from the JSON Schema the host passes,
/// through DynamicGenerationSchema. Supported: objects (properties,
/// required), arrays (items, minItems, maxItems), string, integer, number,
/// boolean, string enums, and descriptions at every level.
enum SchemaBuilder {

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func generationSchema(json: String, name: String) throws -> GenerationSchema {
        guard let data = json.data(using: .utf8),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "the parameters schema is not a JSON object")
        }
        return try GenerationSchema(root: dynamic(root, name: name, path: "$"), dependencies: [])
    }

    private static func dynamic(_ node: [String: Any], name: String, path: String) throws -> DynamicGenerationSchema {
        let description = node["description"] as? String
        if let values = node["enum"] {
            guard let choices = values as? [String], !choices.isEmpty else {
                throw Failure(description: "\(path): enum must be a non-empty array of strings")
            }
            return DynamicGenerationSchema(name: name, description: description, anyOf: choices)
        }
        switch node["type"] as? String ?? "" {
        case "object":
            return try object(node, name: name, description: description, path: path)
        case "array":
            guard let items = node["items"] as? [String: Any] else {
                throw Failure(description: "\(path): an array needs an items schema")
            }
            return DynamicGenerationSchema(
                arrayOf: try dynamic(items, name: name + "Item", path: path + "[]"),
                minimumElements: node["minItems"] as? Int,
                maximumElements: node["maxItems"] as? Int)
        case "string":
            return DynamicGenerationSchema(type: String.self)
        case "integer":
            return DynamicGenerationSchema(type: Int.self)
        case "number":
            return DynamicGenerationSchema(type: Double.self)
        case "boolean":
            return DynamicGenerationSchema(type: Bool.self)
        case let other:
            throw Failure(description: "\(path): unsupported type \(other.isEmpty ? "(none)" : "\"" + other + "\"")")
        }
    }

    private static func object(_ node: [String: Any], name: String, description: String?,
                               path: String) throws -> DynamicGenerationSchema {
        let properties = node["properties"] as? [String: Any] ?? [:]
        let required = node["required"] as? [String] ?? []
        // JSON objects have no order, but the model generates properties in
        // the schema's order: required ones first, as listed, then the rest by name.
        let ordered = required.filter { properties[$0] != nil }
            + properties.keys.filter { !required.contains($0) }.sorted()
        var members: [DynamicGenerationSchema.Property] = []
        for key in ordered {
            guard let child = properties[key] as? [String: Any] else {
                throw Failure(description: "\(path).\(key): a property schema must be an object")
            }
            members.append(DynamicGenerationSchema.Property(
                name: key,
                description: child["description"] as? String,
                schema: try dynamic(child, name: name + "_" + key, path: path + "." + key),
                isOptional: !required.contains(key)))
        }
        return DynamicGenerationSchema(name: name, description: description, properties: members)
    }
}
