import FMShimCore
import XCTest

/// The tool's JSON Schema as the shapes a generation schema can take.
final class SchemaNodeTests: XCTestCase {

    private let runCommand = """
        {"type":"object","properties":{"executable":{"type":"string","description":"Program"},\
        "arguments":{"type":"array","items":{"type":"string"},"description":"Arguments"}},\
        "required":["executable","arguments"]}
        """

    private func failure(_ json: String) -> String? {
        do {
            _ = try SchemaNode.parse(json: json, name: "t")
            return nil
        } catch {
            return String(describing: error)
        }
    }

    func testTheRunCommandSchemaIsReadInTheOrderOfRequired() throws {
        XCTAssertEqual(try SchemaNode.parse(json: runCommand, name: "run_command"), .object(
            name: "run_command", description: nil, properties: [
                .init(name: "executable", description: "Program", node: .string, isOptional: false),
                .init(name: "arguments", description: "Arguments",
                      node: .array(items: .string, minimum: nil, maximum: nil), isOptional: false),
            ]))
    }

    func testRequiredPropertiesComeFirstThenTheOthersByName() throws {
        let json = """
            {"type":"object","properties":{"z":{"type":"string"},"b":{"type":"integer"},\
            "a":{"type":"boolean"},"m":{"type":"number"}},"required":["m","z","m","gone"]}
            """
        guard case .object(_, _, let properties) = try SchemaNode.parse(json: json, name: "t") else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(properties.map(\.name), ["m", "z", "a", "b"])
        XCTAssertEqual(properties.map(\.isOptional), [false, false, true, true])
    }

    func testEnumsNestedObjectsAndBoundsAreRead() throws {
        let json = """
            {"type":"object","description":"top","properties":{"mode":{"enum":["a","b"],"description":"m"},\
            "inner":{"type":"object","properties":{"s":{"type":"string"}}},\
            "list":{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}}}
            """
        XCTAssertEqual(try SchemaNode.parse(json: json, name: "t"), .object(name: "t", description: "top", properties: [
            .init(name: "inner", description: nil, node: .object(name: "t_inner", description: nil, properties: [
                .init(name: "s", description: nil, node: .string, isOptional: true),
            ]), isOptional: true),
            .init(name: "list", description: nil, node: .array(items: .integer, minimum: 1, maximum: 3), isOptional: true),
            .init(name: "mode", description: "m", node: .choice(name: "t_mode", description: "m", values: ["a", "b"]),
                  isOptional: true),
        ]))
    }

    func testWhatCannotBeUsedSaysWhere() {
        let cases: [(String, String)] = [
            ("[]", "the parameters schema is not a JSON object"),
            ("not json", "the parameters schema is not a JSON object"),
            ("{\"type\":\"null\"}", "$: unsupported type \"null\""),
            ("{}", "$: unsupported type (none)"),
            ("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\"}}}", "$.a: an array needs an items schema"),
            ("{\"type\":\"object\",\"properties\":{\"a\":7}}", "$.a: a property schema must be an object"),
            ("{\"enum\":[]}", "$: enum must be a non-empty array of strings"),
            ("{\"enum\":[1,2]}", "$: enum must be a non-empty array of strings"),
            ("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":-1}",
             "$: minItems must be a non-negative whole number"),
            ("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":1.5}",
             "$: maxItems must be a non-negative whole number"),
            ("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":\"3\"}",
             "$: maxItems must be a non-negative whole number"),
            ("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":4,\"maxItems\":3}",
             "$: minItems 4 is more than maxItems 3"),
            ("{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\
             \"properties\":{\"x\":{\"type\":\"date\"}}}}}", "$[][].x: unsupported type \"date\""),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(failure(json), expected, json)
        }
    }

    func testASchemaNestedDeeperThanAnyToolNeedsIsRefused() {
        var json = "{\"type\":\"string\"}"
        for _ in 0..<(SchemaNode.maximumDepth + 1) {
            json = "{\"type\":\"array\",\"items\":" + json + "}"
        }
        let path = "$" + String(repeating: "[]", count: SchemaNode.maximumDepth + 1)
        XCTAssertEqual(failure(json), "\(path): nested deeper than \(SchemaNode.maximumDepth) levels")
    }
}
