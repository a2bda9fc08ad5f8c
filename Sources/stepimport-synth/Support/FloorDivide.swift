/// Integer division rounding toward negative infinity (Swift's `/` truncates),
/// so that instants before 1970 still fall on the right day.
@inline(__always)
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
