import FMShimCore
import FoundationModels

/// The tool's GenerationSchema: the host's JSON Schema read by SchemaNode
/// (FMShimCore), turned into DynamicGenerationSchema one shape at a time.
enum SchemaBuilder {

    static func generationSchema(json: String, name: String) throws -> GenerationSchema {
        try GenerationSchema(root: dynamic(SchemaNode.parse(json: json, name: name)), dependencies: [])
    }

    static func dynamic(_ node: SchemaNode) -> DynamicGenerationSchema {
        switch node {
        case .object(let name, let description, let properties):
            return DynamicGenerationSchema(name: name, description: description, properties: properties.map {
                DynamicGenerationSchema.Property(name: $0.name, description: $0.description,
                                                 schema: dynamic($0.node), isOptional: $0.isOptional)
            })
        case .array(let items, let minimum, let maximum):
            return DynamicGenerationSchema(arrayOf: dynamic(items), minimumElements: minimum, maximumElements: maximum)
        case .choice(let name, let description, let values):
            return DynamicGenerationSchema(name: name, description: description, anyOf: values)
        case .string:
            return DynamicGenerationSchema(type: String.self)
        case .integer:
            return DynamicGenerationSchema(type: Int.self)
        case .number:
            return DynamicGenerationSchema(type: Double.self)
        case .boolean:
            return DynamicGenerationSchema(type: Bool.self)
        }
    }
}
