/// A count with its noun: "1 record", "2 records".
public enum Plural {
    public static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
