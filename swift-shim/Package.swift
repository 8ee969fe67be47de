// swift-tools-version: 6.2
import Foundation
import PackageDescription

// libfmshim: Apple's on-device Foundation Models behind the C ABI of
// Sources/FMShimC/include/fmshim.h, for aii's Java side (FFM).
//
// Which framework APIs are compiled in depends on the macOS SDK the build
// compiles against, never on the compiler's version (a swift.org toolchain
// or the Command Line Tools may pair a new compiler with an older SDK):
// FMSHIM_MACOS_26_4_SDK (context size, token counting) from the 26.4 SDK on,
// FMSHIM_MACOS_27_SDK (model variant, macOS 27 error types) from the 27 SDK.
// The SDK is FMSHIM_SDK when set (e.g. FMSHIM_SDK=26.0), else the version in
// the SDKSettings.json of $SDKROOT or of `xcrun --sdk macosx --show-sdk-path`,
// else `xcrun --sdk macosx --show-sdk-version`; when none answers, nothing
// optional is compiled in, which builds with any SDK.

/// A macOS SDK version, "26.4" as (26, 4).
struct SDKVersion: Comparable {
    let major: Int
    let minor: Int

    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        guard let major = parts.first.flatMap({ Int($0) }) else { return nil }
        self.major = major
        self.minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }

    static func < (a: SDKVersion, b: SDKVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }
}

/// What a command prints, or nil when it cannot run or fails.
func output(_ arguments: [String]) -> String? {
    #if os(macOS)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return nil
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines)
    #else
    return nil
    #endif
}

/// The Version of a macOS SDK directory's SDKSettings.json.
func settingsVersion(_ sdk: String) -> SDKVersion? {
    let url = URL(fileURLWithPath: sdk).appendingPathComponent("SDKSettings.json")
    guard let data = try? Data(contentsOf: url),
          let settings = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          (settings["CanonicalName"] as? String)?.hasPrefix("macosx") ?? false,
          let version = settings["Version"] as? String else { return nil }
    return SDKVersion(version)
}

let environment = ProcessInfo.processInfo.environment
let forcedSDK = environment["FMSHIM_SDK"].flatMap(SDKVersion.init)
let sdk: SDKVersion? = forcedSDK
    ?? environment["SDKROOT"].flatMap(settingsVersion)
    ?? output(["/usr/bin/xcrun", "--sdk", "macosx", "--show-sdk-path"]).flatMap(settingsVersion)
    ?? output(["/usr/bin/xcrun", "--sdk", "macosx", "--show-sdk-version"]).flatMap(SDKVersion.init)

var sdkDefines: [SwiftSetting] = []
if let sdk, sdk >= SDKVersion("26.4")! {
    sdkDefines.append(.define("FMSHIM_MACOS_26_4_SDK"))
}
if let sdk, sdk >= SDKVersion("27")! {
    sdkDefines.append(.define("FMSHIM_MACOS_27_SDK"))
}
if forcedSDK != nil {
    // Tells the tests that the SDK was named, not found: it may be older than the one in use.
    sdkDefines.append(.define("FMSHIM_SDK_FORCED"))
}

// Tests share state with callbacks and threads the way C callers do; the
// library itself is checked in the Swift 6 language mode.
let testSettings: [SwiftSetting] = [.swiftLanguageMode(.v5)]

// Model-free: the header, and the logic that needs no model (the DELTA/RESET
// rule, the pump, the answer gate, the error table, the schema reader). Builds
// and tests with any Swift toolchain, Linux included.
var targets: [Target] = [
    // The header, the single source of truth of the ABI.
    .target(name: "FMShimC", path: "Sources/FMShimC"),
    .target(name: "FMShimCore", dependencies: ["FMShimC"], path: "Sources/FMShimCore"),
    .testTarget(name: "FMShimCoreTests", dependencies: ["FMShimCore", "FMShimC"], path: "Tests/FMShimCoreTests",
                swiftSettings: testSettings),
]
var products: [Product] = []

#if os(macOS)
// The library itself: every function of the header, implemented with @_cdecl over FoundationModels.
targets += [
    .target(
        name: "FMShim",
        dependencies: ["FMShimC", "FMShimCore"],
        path: "Sources/FMShim",
        swiftSettings: sdkDefines,
        linkerSettings: [.linkedFramework("FoundationModels")]
    ),
    // What the C compiler saw as the SDK, for the test that checks the defines above.
    .target(name: "FMShimBuildInfo", path: "Sources/FMShimBuildInfo"),
    .testTarget(
        name: "FMShimTests",
        dependencies: ["FMShim", "FMShimC", "FMShimCore", "FMShimBuildInfo"],
        path: "Tests/FMShimTests",
        swiftSettings: sdkDefines + testSettings
    ),
]
products.append(.library(name: "fmshim", type: .dynamic, targets: ["FMShim"]))
#endif

let package = Package(
    name: "fmshim",
    platforms: [.macOS(.v26)],
    products: products,
    targets: targets
)
