import FMShimCore
import FoundationModels
import XCTest

@testable import FMShim

/// The schema reader's shapes become a GenerationSchema the framework takes.
final class SchemaBuilderTests: XCTestCase {

    func testTheRunCommandSchemaBuilds() throws {
        let json = """
            {"type":"object","properties":{"executable":{"type":"string","description":"Program"},\
            "arguments":{"type":"array","items":{"type":"string"},"description":"Arguments"}},\
            "required":["executable","arguments"]}
            """
        XCTAssertNoThrow(try SchemaBuilder.generationSchema(json: json, name: "run_command"))
    }

    func testEveryShapeBuilds() throws {
        let json = """
            {"type":"object","properties":{"mode":{"enum":["a","b"]},"n":{"type":"integer"},\
            "x":{"type":"number"},"flag":{"type":"boolean"},\
            "list":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":4},\
            "inner":{"type":"object","properties":{"s":{"type":"string"}}}}}
            """
        XCTAssertNoThrow(try SchemaBuilder.generationSchema(json: json, name: "t"))
    }

    func testAnUnusableSchemaIsTheReadersFailure() {
        XCTAssertThrowsError(try SchemaBuilder.generationSchema(json: "{\"type\":\"null\"}", name: "t")) { error in
            XCTAssertEqual(error as? SchemaNode.Failure, SchemaNode.Failure(description: "$: unsupported type \"null\""))
        }
    }
}
