import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into RasterHarness before every build: the
/// commit of the package's checkout (`git rev-parse --short=12 HEAD`, with
/// "-dirty" when tracked files differ from it), so a binary reports the
/// commit it was built from wherever it is run, not the commit of whatever
/// folder it is started in. A prebuild command runs on every build; the
/// script replaces the file only when its text changes, so an unchanged
/// commit recompiles nothing. Outside a git checkout (a source tarball) the
/// commit is RASTERBENCH_GIT_COMMIT if set when building, else "unknown".
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let script = """
            set -u
            root=$1; out=$2; file=$out/BuildCommit.swift
            commit=${RASTERBENCH_GIT_COMMIT:-}
            if [ -z "$commit" ] && head=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) && [ -n "$head" ]; then
                commit=$head
                if [ -n "$(git --no-optional-locks -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit=$commit-dirty; fi
            fi
            commit=$(printf '%s' "${commit:-unknown}" | tr -cd 'A-Za-z0-9._-' | cut -c1-64)
            mkdir -p "$out"
            text="// Generated before each build by Plugins/BuildCommit. Do not edit.
            enum BuildCommit { static let value = \\"$commit\\" }"
            [ -f "$file" ] && [ "$(cat "$file")" = "$text" ] || printf '%s\\n' "$text" > "$file"
            """
        // The build's own environment is not promised to a prebuild command.
        let env = ProcessInfo.processInfo.environment
        var environment = ["PATH": env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
        if let commit = env["RASTERBENCH_GIT_COMMIT"] { environment["RASTERBENCH_GIT_COMMIT"] = commit }
        return [.prebuildCommand(
            displayName: "Recording the git commit of \(context.package.displayName)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
            environment: environment,
            outputFilesDirectory: output)]
    }
}
