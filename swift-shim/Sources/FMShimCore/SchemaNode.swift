import Foundation

/// The tool's parameters as the JSON Schema the host passes, read into the
/// shapes a generation schema can take: objects (properties, required),
/// arrays (items, minItems, maxItems), string, integer, number, boolean, and
/// string enums, with descriptions. Anything else is a Failure that says where.
package indirect enum SchemaNode: Equatable, Sendable {
    case object(name: String, description: String?, properties: [Property])
    case array(items: SchemaNode, minimum: Int?, maximum: Int?)
    case choice(name: String, description: String?, values: [String])
    case string
    case integer
    case number
    case boolean

    /// One property of an object.
    package struct Property: Equatable, Sendable {
        package let name: String
        package let description: String?
        package let node: SchemaNode
        package let isOptional: Bool

        package init(name: String, description: String?, node: SchemaNode, isOptional: Bool) {
            self.name = name
            self.description = description
            self.node = node
            self.isOptional = isOptional
        }
    }

    /// Why a schema cannot be used; path is where, e.g. $.arguments[].
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Deeper than this is no schema a tool needs, and would only cost stack.
    package static let maximumDepth = 32

    /// The schema in json; name names the root and, with suffixes, the nested types.
    package static func parse(json: String, name: String) throws -> SchemaNode {
        guard let data = json.data(using: .utf8),
              let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Failure(description: "the parameters schema is not a JSON object")
        }
        return try node(root, name: name, path: "$", depth: 0)
    }

    private static func node(_ json: [String: Any], name: String, path: String, depth: Int) throws -> SchemaNode {
        if depth > maximumDepth {
            throw Failure(description: "\(path): nested deeper than \(maximumDepth) levels")
        }
        let description = json["description"] as? String
        if let values = json["enum"] {
            guard let choices = values as? [String], !choices.isEmpty else {
                throw Failure(description: "\(path): enum must be a non-empty array of strings")
            }
            return .choice(name: name, description: description, values: choices)
        }
        switch json["type"] as? String ?? "" {
        case "object":
            return try object(json, name: name, description: description, path: path, depth: depth)
        case "array":
            guard let items = json["items"] as? [String: Any] else {
                throw Failure(description: "\(path): an array needs an items schema")
            }
            let minimum = try count(json, "minItems", path: path)
            let maximum = try count(json, "maxItems", path: path)
            if let minimum, let maximum, minimum > maximum {
                throw Failure(description: "\(path): minItems \(minimum) is more than maxItems \(maximum)")
            }
            return .array(items: try node(items, name: name + "Item", path: path + "[]", depth: depth + 1),
                          minimum: minimum, maximum: maximum)
        case "string":
            return .string
        case "integer":
            return .integer
        case "number":
            return .number
        case "boolean":
            return .boolean
        case let other:
            throw Failure(description: "\(path): unsupported type \(other.isEmpty ? "(none)" : "\"" + other + "\"")")
        }
    }

    private static func object(_ json: [String: Any], name: String, description: String?, path: String,
                               depth: Int) throws -> SchemaNode {
        let properties = json["properties"] as? [String: Any] ?? [:]
        let required = json["required"] as? [String] ?? []
        // JSON objects have no order, but the model generates properties in the schema's order:
        // required ones first, as listed, then the rest by name.
        var ordered: [String] = []
        for key in required where properties[key] != nil && !ordered.contains(key) {
            ordered.append(key)
        }
        ordered += properties.keys.filter { !required.contains($0) }.sorted()
        var members: [Property] = []
        for key in ordered {
            guard let child = properties[key] as? [String: Any] else {
                throw Failure(description: "\(path).\(key): a property schema must be an object")
            }
            members.append(Property(
                name: key,
                description: child["description"] as? String,
                node: try node(child, name: name + "_" + key, path: path + "." + key, depth: depth + 1),
                isOptional: !required.contains(key)))
        }
        return .object(name: name, description: description, properties: members)
    }

    /// A non-negative whole number under key, if present.
    private static func count(_ json: [String: Any], _ key: String, path: String) throws -> Int? {
        guard let value = json[key] else {
            return nil
        }
        let number: Double?
        switch value {
        case let int as Int:
            number = Double(int)
        case let double as Double:
            number = double
        case let other as NSNumber:
            number = other.doubleValue
        default:
            number = nil
        }
        guard let number, number >= 0, number == number.rounded(), number <= Double(Int32.max) else {
            throw Failure(description: "\(path): \(key) must be a non-negative whole number")
        }
        return Int(number)
    }
}
