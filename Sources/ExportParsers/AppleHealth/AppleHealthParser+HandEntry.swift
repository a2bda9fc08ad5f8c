import CLibXML2
import HealthDays

/// Records typed in by hand (`AppleHandEntry`): the mark is a child of the record, so a record
/// libxml2 reads is held until its end tag; one the selector read comes with its children's mark.
extension AppleHealthParser {
    /// Hands on a record's sample, of steps (`metric` nil) or of `metric`.
    @inline(__always)
    func deliver(_ sample: HealthSample, of metric: Metric?, source: UnsafeRawBufferPointer) {
        if tagPlace != nil {
            var sample = sample
            sample.enteredByHand = selectedByHand
            handOn(sample, of: metric, source: source)
        } else {
            held = (sample, metric)
            heldSource.removeAll(keepingCapacity: true)
            heldSource.append(contentsOf: source)
        }
    }

    /// A `MetadataEntry` inside the record held: Apple's mark makes it entered by hand.
    func noteMetadataEntry(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int) {
        guard let key = attributeValue(attributes, count, "key"),
              AppleHandEntry.marks(key: key, value: attributeValue(attributes, count, "value"))
        else { return }
        held?.sample.enteredByHand = true
    }

    /// Hands on the record held, at its end tag.
    func handOnHeld() {
        guard let (sample, metric) = held else { return }
        held = nil
        heldSource.withUnsafeBytes { handOn(sample, of: metric, source: $0) }
    }

    @inline(__always)
    private func handOn(_ sample: HealthSample, of metric: Metric?, source: UnsafeRawBufferPointer) {
        if let metric {
            sink.add(sample, of: metric, sourceUTF8: source)
        } else {
            sink.add(sample, sourceUTF8: source)
        }
    }
}
