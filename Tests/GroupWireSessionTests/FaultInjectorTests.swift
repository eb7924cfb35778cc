import GroupWireSession
import GroupWireTesting
import Testing

@Suite struct FaultInjectorTests {
    private func decisions(_ plan: FaultPlan, link: UInt64 = 1, count: Int = 200) -> [FaultDecision] {
        var injector = FaultInjector(plan: plan, link: link)
        return (0..<count).map { injector.decide(at: .milliseconds($0)) }
    }

    @Test func theSameSeedReplaysTheSameDecisions() {
        let plan = FaultPlan.unreliable(seed: 42, drop: 0.2, duplicate: 0.2, reorder: 0.2)
        #expect(decisions(plan) == decisions(plan))
        #expect(decisions(plan) != decisions(FaultPlan.unreliable(seed: 43, drop: 0.2, duplicate: 0.2, reorder: 0.2)))
        #expect(decisions(plan, link: 1) != decisions(plan, link: 2))
    }

    @Test func theRatesAreRoughlyHonoured() {
        let all = decisions(FaultPlan.unreliable(seed: 7, drop: 0.25, duplicate: 0.25, reorder: 0.25), count: 4_000)
        let dropped = all.filter { $0.deliveries.isEmpty }.count
        let duplicated = all.filter { $0.deliveries.count == 2 }.count
        #expect((800...1_200).contains(dropped))
        #expect((600...900).contains(duplicated))  // 0.75 × 0.25 of the messages survive to be doubled
    }

    @Test func aDropRateOfOneLosesEverythingAndADuplicateRateOfOneDoublesEverything() {
        #expect(decisions(FaultPlan.unreliable(seed: 1, drop: 1)).allSatisfy { $0.deliveries.isEmpty })
        #expect(decisions(FaultPlan.unreliable(seed: 1, duplicate: 1)).allSatisfy { $0.deliveries.count == 2 })
    }

    @Test func delaysStayInsideTheirRange() {
        let plan = FaultPlan.unreliable(seed: 3, delay: .milliseconds(5) ... .milliseconds(8))
        for (index, decision) in decisions(plan).enumerated() {
            let sent = Duration.milliseconds(index)
            #expect(decision.deliveries.allSatisfy { $0 >= sent + .milliseconds(5) && $0 <= sent + .milliseconds(8) })
        }
    }

    @Test func aReliableLinkNeverReordersEvenWithRandomDelays() {
        let plan = FaultPlan.reliable(seed: 9, delay: .zero ... .milliseconds(50))
        let times = decisions(plan).map { $0.deliveries }
        #expect(times.allSatisfy { $0.count == 1 })
        let flat = times.flatMap { $0 }
        #expect(flat == flat.sorted())
    }

    @Test func anUnreliableLinkWithReorderingDeliversSomeMessagesOutOfOrder() {
        let plan = FaultPlan.unreliable(seed: 9, reorder: 0.3, delay: .milliseconds(1) ... .milliseconds(1))
        let firsts = decisions(plan).compactMap(\.deliveries.first)
        #expect(firsts != firsts.sorted())
        #expect(decisions(plan).contains { $0.reordered })
    }
}
