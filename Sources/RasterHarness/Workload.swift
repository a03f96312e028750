import RasterKit

/// One thing to time: a kernel (or scene) x variant x backend x threads x
/// size, with everything it needs built *outside* the timed region.
///
/// `make` allocates the images, scratch and inputs and returns the timed
/// `body`, which must only run the kernel on those buffers (no allocation,
/// no set-up: reused buffers, docs/measurement.md §2). It is called once per
/// workload, just before sampling, so the suite's memory is one workload's.
@dynamicMemberLookup
public struct Workload {
    /// What is measured; `w.kernel` reads `w.key.kernel`. The profile is the run's, set by its rows.
    public var key: MeasurementKey
    /// Work per run and its unit: pixels for image kernels, anchors for K5.
    public var items: Int
    public var itemUnit: String = "px"
    /// Bytes read plus bytes written by one run, for memory-bound kernels
    /// (nil for compute-bound ones, where a bandwidth fraction means nothing).
    public var bytesPerRun: Int? = nil
    /// The least traffic and arithmetic a run needs (`KernelWork`), which
    /// the row's `limit_ms` is made of; nil when no model exists.
    public var work: WorkFloor? = nil
    /// Where the quality reference comes from; nil when none exists yet.
    public var reference: ReferenceSource? = nil
    public var note: String = ""
    /// Lowers the sampler's `floorSamples` for this workload (slow scene
    /// frames); nil keeps the run's setting.
    public var floorSamples: Int? = nil
    /// A frame takes seconds on the naive backend (`NaiveCost`): `run
    /// --quick` leaves the row out and says so.
    public var slowOnNaive = false
    public var make: () throws -> WorkloadInstance

    public init(kernel: String, variant: String, backend: BackendKind, threads: Int, width: Int, height: Int,
                items: Int? = nil, make: @escaping () throws -> WorkloadInstance) {
        key = MeasurementKey(kernel: kernel, variant: variant, backend: backend, threads: threads, width: width, height: height)
        self.items = items ?? width * height; self.make = make
    }

    public subscript<T>(dynamicMember kp: WritableKeyPath<MeasurementKey, T>) -> T {
        get { key[keyPath: kp] } set { key[keyPath: kp] = newValue }
    }

    public subscript<T>(dynamicMember kp: KeyPath<MeasurementKey, T>) -> T { key[keyPath: kp] }

    public var label: String {
        var s = "\(key.kernel)/\(key.variant)/\(key.backend.rawValue) t=\(key.threads)"
        if key.width > 0 { s += " \(key.width)x\(key.height)" } else { s += " \(items) \(itemUnit)s" }
        if !key.paramText.isEmpty { s += " \(key.paramText)" }
        return s
    }
}

/// A prepared workload: the timed body and, for quality, one untimed run
/// on fresh inputs whose output is compared with the reference.
public struct WorkloadInstance {
    /// Runs the kernel once. Timed; must not allocate.
    public var body: () throws -> Void
    /// Resets the inputs (kernels that work in place), runs once, and
    /// returns the output image. Not timed. nil when there is no image.
    public var output: (() throws -> ImageView)?
    /// The objects owning the memory the closures' views point into (views
    /// are unowned pointers); held for as long as the instance lives.
    public var owners: [AnyObject]
    /// The work floor when it is known only once the inputs are built (a
    /// scene's frames); otherwise the workload's.
    public var work: WorkFloor?

    public init(owning owners: [AnyObject], body: @escaping () throws -> Void,
                output: (() throws -> ImageView)? = nil, work: WorkFloor? = nil) {
        self.owners = owners
        self.body = body
        self.output = output
        self.work = work
    }
}

/// A double-precision reference image (RasterReference), computed once per
/// `key` and shared by every variant and backend that renders the same
/// frame: the reference is slow on purpose, so it is never recomputed.
public struct ReferenceSource {
    /// Identifies the frame: kernel, parameters and size.
    public var key: String
    /// width * height * 4 unrounded premultiplied values.
    public var compute: () throws -> [Double]

    public init(key: String, compute: @escaping () throws -> [Double]) {
        self.key = key
        self.compute = compute
    }
}

/// Image quality against the reference, in 8-bit units (docs/contract.md §4).
public struct Quality: Sendable, Equatable {
    public var psnr: Double
    public var maxError: Double
}
