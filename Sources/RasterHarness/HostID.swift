import Foundation

extension HostInfo {
    /// A file-name-safe name for this machine that tells machines apart
    /// where a host name does not (cloud VMs are often all called `vm`):
    /// the CPU model's first words and a short hash of the machine's
    /// identity, e.g. `amd-epyc-7763-3f9a2c`.
    public var hostID: String {
        HostInfo.hostID(cpuModel: cpuModel, machine: HostInfo.machineIdentity() ?? hostname, cores: cores)
    }

    /// `cpuModel`'s first four words (lower case, letters and digits only;
    /// trademarks, "CPU", "Processor" and the clock after "@" left out),
    /// then 6 hex digits of a hash of the model, the machine and its cores.
    public static func hostID(cpuModel: String, machine: String, cores: Int) -> String {
        let noise: Set<String> = ["r", "tm", "cpu", "processor", "with", "graphics", "radeon", "core"]
        let model = cpuModel.lowercased().split(separator: "@").first.map(String.init) ?? ""
        let words = model.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
            .map(String.init).filter { !noise.contains($0) }.prefix(4)
        let name = words.isEmpty ? "host" : words.joined(separator: "-")
        // FNV-1a: stable across runs and platforms, unlike Hasher.
        var hash: UInt32 = 2_166_136_261
        for byte in "\(cpuModel)|\(machine)|\(cores)".utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "\(name.prefix(40))-\(String(format: "%06x", hash & 0xFF_FFFF))"
    }

    /// The OS's id of this installation (systemd's machine-id), nil where
    /// there is none; its hash only is used, never the id itself.
    static func machineIdentity() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !id.isEmpty { return id }
            }
        }
        return nil
    }
}
