import FMShimBuildInfo
import XCTest

/// Package.swift compiles optional APIs in by the SDK in use: what it decided
/// must match the SDK the C compiler saw, or a build would silently lack the
/// context size and token counting (or the variant) that its SDK offers.
final class BuildSDKTests: XCTestCase {

    func testTheCompiledInFeaturesAreTheOnesOfTheSDKInUse() throws {
        #if FMSHIM_SDK_FORCED
        throw XCTSkip("FMSHIM_SDK named the SDK: the build may deliberately leave newer APIs out")
        #else
        let sdk = fmshim_build_sdk_version()
        XCTAssertGreaterThan(sdk, 0, "no macOS SDK version seen")
        #if FMSHIM_MACOS_26_4_SDK
        XCTAssertGreaterThanOrEqual(sdk, 260400)
        #else
        XCTAssertLessThan(sdk, 260400, "the SDK has contextSize and tokenCount(for:), but they were not compiled in")
        #endif
        #if FMSHIM_MACOS_27_SDK
        XCTAssertGreaterThanOrEqual(sdk, 270000)
        #else
        XCTAssertLessThan(sdk, 270000, "the SDK has the macOS 27 APIs, but they were not compiled in")
        #endif
        #endif
    }
}
