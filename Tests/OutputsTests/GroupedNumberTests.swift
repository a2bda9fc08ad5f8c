@testable import Outputs
import Testing

@Suite struct GroupedNumberTests {
    @Test(arguments: [(0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (10991, "10,991"), (494_613, "494,613"),
                      (1_000_000, "1,000,000"), (-1234, "-1,234"),
                      (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808")])
    func digitsInGroupsOfThree(_ number: Int, _ expected: String) {
        #expect(GroupedNumber.format(number) == expected)
    }
}
