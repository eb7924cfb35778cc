import Foundation
import Testing
import GroupWireSpec

@Suite struct SmokeTests {
    @Test func printAll() throws {
        for name in ["DrawTogether.gwspec", "WatchTogether.gwspec", "Versions/DrawTogether-v2.gwspec", "Versions/DrawTogether-v3.gwspec"] {
            let c = try Examples.compile(name)
            print(name, c.renderedDiagnostics, c.spec.fingerprint)
        }
        let v1 = try Examples.spec("DrawTogether.gwspec"), v2 = try Examples.spec("Versions/DrawTogether-v2.gwspec"), v3 = try Examples.spec("Versions/DrawTogether-v3.gwspec")
        print(CompatibilityChecker.compare(old: v1, new: v2).renderText())
        print(CompatibilityChecker.compare(old: v2, new: v3).renderText())
        print(CompatibilityChecker.compare(old: v3, new: v1).renderJSON())
        print(v1.canonicalText)
        print(v1.canonicalText(ofMessage: "UpsertStroke")!, v1.fingerprint(ofMessage: "UpsertStroke")!)
    }
}
