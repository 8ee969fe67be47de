// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Which SDK's APIs to compile in. A toolchain's Swift version tells the Xcode
// release it came with: Swift 6.3 with Xcode 26.4 (macOS 26.4 SDK: context
// size, token counting), a later Swift with Xcode 27 (macOS 27 SDK: model
// variant, LanguageModelError). FMSHIM_SDK=26.0, 26.4 or 27 overrides the guess.
let guessedSDK: String = {
    #if compiler(>=6.4)
    return "27"
    #elseif compiler(>=6.3)
    return "26.4"
    #else
    return "26.0"
    #endif
}()
let sdk = ProcessInfo.processInfo.environment["FMSHIM_SDK"] ?? guessedSDK
var sdkDefines: [SwiftSetting] = []
if sdk == "26.4" || sdk == "27" {
    sdkDefines.append(.define("FMSHIM_MACOS_26_4_SDK"))
}
if sdk == "27" {
    sdkDefines.append(.define("FMSHIM_MACOS_27_SDK"))
}

// libfmshim: Apple's on-device Foundation Models behind the C ABI of
// Sources/FMShimC/include/fmshim.h, for aii's Java side (FFM).
let package = Package(
    name: "fmshim",
    platforms: [.macOS(.v26)],
    products: [
        .library(name: "fmshim", type: .dynamic, targets: ["FMShim"]),
    ],
    targets: [
        // The header, the single source of truth of the ABI.
        .target(name: "FMShimC", path: "Sources/FMShimC"),
        // Every function of the header, implemented with @_cdecl.
        .target(
            name: "FMShim",
            dependencies: ["FMShimC"],
            path: "Sources/FMShim",
            swiftSettings: sdkDefines,
            linkerSettings: [.linkedFramework("FoundationModels")]
        ),
        .testTarget(
            name: "FMShimTests",
            dependencies: ["FMShim", "FMShimC"],
            path: "Tests/FMShimTests",
            swiftSettings: sdkDefines
        ),
    ]
)
