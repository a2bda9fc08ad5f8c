/// The small `export_cda.xml` that sits next to `export.xml` in every export.
///
/// Apple's copy is an HL7 CDA document that is itself not well-formed; this one
/// keeps that property on purpose (a raw `&` in a text node), so an importer
/// that parses the wrong entry fails loudly instead of finding nothing.
enum ClinicalDocument {
    /// The document for an export made at `exportInstant`.
    static func bytes(exportInstant: Int64, firstDay: Int, lastDay: Int) -> [UInt8] {
        var stamp = ByteBuffer()
        stamp.append(appleTimestamp: exportInstant)
        // CDA wants yyyyMMddHHmmss+zzzz.
        let compact = String(decoding: stamp.bytes.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: " ") }, as: UTF8.self)
        let low = CivilDate(dayNumber: firstDay).text.filter { $0 != "-" }
        let high = CivilDate(dayNumber: lastDay).text.filter { $0 != "-" }
        let text = """
            <?xml version="1.0"?>
            <?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
            <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" classCode="DOCCLIN" moodCode="EVN">
             <realmCode code="DE"/>
             <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
             <templateId root="2.16.840.1.113883.10.20.22.1.1"/>
             <id extension="Health Export" root="1.1.1.1.1.1.1.1.1"/>
             <code codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" code="34109-9" displayName="Note"/>
             <title>Health Data Export</title>
             <effectiveTime value="\(compact)"/>
             <confidentialityCode codeSystem="2.16.840.1.113883.5.25" code="N"/>
             <recordTarget>
              <patientRole>
               <id extension="Health Export" root="1.1.1.1.1.1.1.1.2"/>
               <patient>
                <name><given>Anna</given></name>
                <administrativeGenderCode codeSystem="2.16.840.1.113883.5.1" code="F"/>
                <birthTime value="19910623"/>
               </patient>
              </patientRole>
             </recordTarget>
             <component>
              <structuredBody>
               <component>
                <section>
                 <title>Vital Signs & Activity</title>
                 <text>Recorded by Anna’s iPhone & Anna’s Apple Watch</text>
                 <entry typeCode="DRIV">
                  <organizer classCode="CLUSTER" moodCode="EVN">
                   <statusCode code="completed"/>
                   <effectiveTime>
                    <low value="\(low)"/>
                    <high value="\(high)"/>
                   </effectiveTime>
                  </organizer>
                 </entry>
                </section>
               </component>
              </structuredBody>
             </component>
            </ClinicalDocument>

            """
        return Array(text.utf8)
    }
}
