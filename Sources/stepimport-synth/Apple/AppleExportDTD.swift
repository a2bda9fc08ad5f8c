/// The internal DTD at the head of `export.xml`, in the style of HealthKit's
/// exporter (export version 13, iOS 17).
///
/// Parsers must get past it without loading anything: it declares no external
/// entities, but iOS 16 shipped one with an unclosed `<!ATTLIST` that makes
/// libxml2 fail before the first record. `broken` reproduces that defect.
enum AppleExportDTD: String, CaseIterable {
    /// A well-formed internal DTD.
    case normal
    /// iOS 16's defect: `<!ATTLIST VisionPrescription` is never closed, yet the
    /// subset still ends with `]>`.
    case broken
    /// No DOCTYPE at all (older or trimmed exports).
    case none

    /// The `<!DOCTYPE ...]>` block with its trailing newline, or nothing.
    var text: String {
        switch self {
        case .none:
            return ""
        case .normal:
            return AppleExportDTD.head + AppleExportDTD.visionPrescription(closed: true) + AppleExportDTD.tail
        case .broken:
            return AppleExportDTD.head + AppleExportDTD.visionPrescription(closed: false) + AppleExportDTD.tail
        }
    }

    private static let head = """
        <!DOCTYPE HealthData [
          <!-- HealthKit Export Version: 13 -->
          <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
          <!ATTLIST HealthData
            locale CDATA #REQUIRED
        >
          <!ELEMENT ExportDate EMPTY>
          <!ATTLIST ExportDate
            value CDATA #REQUIRED
        >
          <!ELEMENT Me EMPTY>
          <!ATTLIST Me
            HKCharacteristicTypeIdentifierDateOfBirth CDATA #REQUIRED
            HKCharacteristicTypeIdentifierBiologicalSex CDATA #REQUIRED
            HKCharacteristicTypeIdentifierBloodType CDATA #REQUIRED
            HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
            HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED
        >
          <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
          <!ATTLIST Record
            type CDATA #REQUIRED
            unit CDATA #IMPLIED
            value CDATA #IMPLIED
            sourceName CDATA #REQUIRED
            sourceVersion CDATA #IMPLIED
            device CDATA #IMPLIED
            creationDate CDATA #IMPLIED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
        >
          <!-- Records nested in a Correlation are repeated as top-level Records
            elsewhere in this file. -->
          <!ELEMENT Correlation ((MetadataEntry|Record)*)>
          <!ATTLIST Correlation
            type CDATA #REQUIRED
            sourceName CDATA #REQUIRED
            sourceVersion CDATA #IMPLIED
            device CDATA #IMPLIED
            creationDate CDATA #IMPLIED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
        >
          <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutStatistics|WorkoutActivity|WorkoutRoute)*)>
          <!ATTLIST Workout
            workoutActivityType CDATA #REQUIRED
            duration CDATA #IMPLIED
            durationUnit CDATA #IMPLIED
            totalDistance CDATA #IMPLIED
            totalDistanceUnit CDATA #IMPLIED
            totalEnergyBurned CDATA #IMPLIED
            totalEnergyBurnedUnit CDATA #IMPLIED
            sourceName CDATA #REQUIRED
            sourceVersion CDATA #IMPLIED
            device CDATA #IMPLIED
            creationDate CDATA #IMPLIED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
        >
          <!ELEMENT WorkoutActivity ((WorkoutEvent|WorkoutStatistics|MetadataEntry)*)>
          <!ATTLIST WorkoutActivity
            uuid CDATA #REQUIRED
            startDate CDATA #REQUIRED
            endDate CDATA #IMPLIED
            duration CDATA #IMPLIED
            durationUnit CDATA #IMPLIED
        >
          <!ELEMENT WorkoutEvent ((MetadataEntry)*)>
          <!ATTLIST WorkoutEvent
            type CDATA #REQUIRED
            date CDATA #REQUIRED
            duration CDATA #IMPLIED
            durationUnit CDATA #IMPLIED
        >
          <!ELEMENT WorkoutStatistics EMPTY>
          <!ATTLIST WorkoutStatistics
            type CDATA #REQUIRED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
            average CDATA #IMPLIED
            minimum CDATA #IMPLIED
            maximum CDATA #IMPLIED
            sum CDATA #IMPLIED
            unit CDATA #IMPLIED
        >
          <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
          <!ATTLIST WorkoutRoute
            sourceName CDATA #REQUIRED
            sourceVersion CDATA #IMPLIED
            device CDATA #IMPLIED
            creationDate CDATA #IMPLIED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
        >
          <!ELEMENT FileReference EMPTY>
          <!ATTLIST FileReference
            path CDATA #REQUIRED
        >
          <!ELEMENT ActivitySummary EMPTY>
          <!ATTLIST ActivitySummary
            dateComponents CDATA #IMPLIED
            activeEnergyBurned CDATA #IMPLIED
            activeEnergyBurnedGoal CDATA #IMPLIED
            activeEnergyBurnedUnit CDATA #IMPLIED
            appleMoveTime CDATA #IMPLIED
            appleMoveTimeGoal CDATA #IMPLIED
            appleExerciseTime CDATA #IMPLIED
            appleExerciseTimeGoal CDATA #IMPLIED
            appleStandHours CDATA #IMPLIED
            appleStandHoursGoal CDATA #IMPLIED
        >
          <!ELEMENT MetadataEntry EMPTY>
          <!ATTLIST MetadataEntry
            key CDATA #REQUIRED
            value CDATA #REQUIRED
        >
          <!-- Heart rate variability samples from Apple Watch may carry the
            instantaneous heart rate of every beat they were computed from. -->
          <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
          <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
          <!ATTLIST InstantaneousBeatsPerMinute
            bpm CDATA #REQUIRED
            time CDATA #REQUIRED
        >
          <!ELEMENT ClinicalRecord EMPTY>
          <!ATTLIST ClinicalRecord
            type CDATA #REQUIRED
            identifier CDATA #REQUIRED
            sourceName CDATA #REQUIRED
            sourceURL CDATA #REQUIRED
            fhirVersion CDATA #REQUIRED
            receivedDate CDATA #REQUIRED
            resourceFilePath CDATA #REQUIRED
        >
          <!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
          <!ATTLIST Audiogram
            type CDATA #REQUIRED
            sourceName CDATA #REQUIRED
            sourceVersion CDATA #IMPLIED
            device CDATA #IMPLIED
            creationDate CDATA #IMPLIED
            startDate CDATA #REQUIRED
            endDate CDATA #REQUIRED
        >
          <!ELEMENT SensitivityPoint EMPTY>
          <!ATTLIST SensitivityPoint
            frequencyValue CDATA #REQUIRED
            frequencyUnit CDATA #REQUIRED
            leftEarValue CDATA #IMPLIED
            leftEarUnit CDATA #IMPLIED
            leftEarMasked CDATA #IMPLIED
            rightEarValue CDATA #IMPLIED
            rightEarUnit CDATA #IMPLIED
            rightEarMasked CDATA #IMPLIED
        >
          <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>

        """

    /// The declaration iOS 16 left unclosed.
    private static func visionPrescription(closed: Bool) -> String {
        """
          <!ATTLIST VisionPrescription
            type CDATA #REQUIRED
            dateIssued CDATA #REQUIRED
            expirationDate CDATA #IMPLIED
            brand CDATA #IMPLIED

        """ + (closed ? ">\n" : "")
    }

    private static let tail = """
          <!ELEMENT RightEye EMPTY>
          <!ATTLIST RightEye
            sphere CDATA #IMPLIED
            sphereUnit CDATA #IMPLIED
            cylinder CDATA #IMPLIED
            cylinderUnit CDATA #IMPLIED
            axis CDATA #IMPLIED
            axisUnit CDATA #IMPLIED
            add CDATA #IMPLIED
            addUnit CDATA #IMPLIED
            vertex CDATA #IMPLIED
            vertexUnit CDATA #IMPLIED
            baseCurve CDATA #IMPLIED
            baseCurveUnit CDATA #IMPLIED
            diameter CDATA #IMPLIED
            diameterUnit CDATA #IMPLIED
        >
          <!ELEMENT LeftEye EMPTY>
          <!ATTLIST LeftEye
            sphere CDATA #IMPLIED
            sphereUnit CDATA #IMPLIED
            cylinder CDATA #IMPLIED
            cylinderUnit CDATA #IMPLIED
            axis CDATA #IMPLIED
            axisUnit CDATA #IMPLIED
            add CDATA #IMPLIED
            addUnit CDATA #IMPLIED
            vertex CDATA #IMPLIED
            vertexUnit CDATA #IMPLIED
            baseCurve CDATA #IMPLIED
            baseCurveUnit CDATA #IMPLIED
            diameter CDATA #IMPLIED
            diameterUnit CDATA #IMPLIED
        >
          <!ELEMENT Attachment EMPTY>
          <!ATTLIST Attachment
            identifier CDATA #IMPLIED
        >
        ]>

        """
}
