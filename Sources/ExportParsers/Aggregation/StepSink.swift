/// Where a format reader delivers the step samples it finds.
public protocol StepSink: AnyObject {
    /// Takes one sample whose source is given as UTF-8 bytes, valid only during the call.
    func add(_ sample: StepSample, sourceUTF8: UnsafeRawBufferPointer)
}

extension StepSink {
    /// Takes one sample whose source is a string.
    public func add(_ sample: StepSample, source: String) {
        var source = source
        source.withUTF8 { add(sample, sourceUTF8: UnsafeRawBufferPointer($0)) }
    }
}
