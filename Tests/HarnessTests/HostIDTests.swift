import RasterHarness
import XCTest

/// A report's default name tells hosts apart where host names do not.
final class HostIDTests: XCTestCase {
    func testHostsWithOneNameStayApart() {
        let amd = HostInfo.hostID(cpuModel: "AMD EPYC 7763 64-Core Processor", machine: "a1", cores: 2)
        let intel = HostInfo.hostID(cpuModel: "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz", machine: "a1", cores: 2)
        let otherAMD = HostInfo.hostID(cpuModel: "AMD EPYC 7763 64-Core Processor", machine: "b2", cores: 2)
        XCTAssertTrue(amd.hasPrefix("amd-epyc-7763-64-"), amd)
        XCTAssertTrue(intel.hasPrefix("intel-xeon-platinum-8370c-"), intel)
        XCTAssertEqual(Set([amd, intel, otherAMD]).count, 3, "\(amd) \(intel) \(otherAMD)")
        XCTAssertEqual(amd, HostInfo.hostID(cpuModel: "AMD EPYC 7763 64-Core Processor", machine: "a1", cores: 2), "stable")
        for id in [amd, intel, otherAMD, HostInfo.hostID(cpuModel: "../\u{1b}[31m /x", machine: "", cores: 0), HostInfo.current().hostID] {
            XCTAssertNil(id.first { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }, "file-name safe: \(id)")
            XCTAssertLessThanOrEqual(id.count, 47, id)
        }
    }
}
