import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

@Suite struct HealthConnectOriginTests {
    @Test(arguments: [
        ("android", "android"),
        ("com.android.healthconnect.phone", "android"),
        ("com.android.healthconnect.phone.steps", "android"),
        ("com.android.healthconnect.phonebook", "com.android.healthconnect.phonebook"),
        ("com.google.android.apps.fitness", "com.google.android.apps.fitness"),
        ("androidx", "androidx"),
        ("", ""),
    ])
    func thePhonesCounterIsOneSource(_ origin: String, _ expected: String) {
        #expect(HealthConnectOrigin.canonical(origin) == expected)
    }
}
