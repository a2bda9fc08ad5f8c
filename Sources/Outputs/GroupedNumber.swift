/// Whole numbers for people: digits in groups of three with commas (`494,711`), whatever the
/// locale, so that output is the same on every machine. Only prose uses it; table columns and
/// CSV keep plain digits, for scripts and spreadsheets.
public enum GroupedNumber {
    public static func format(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}
