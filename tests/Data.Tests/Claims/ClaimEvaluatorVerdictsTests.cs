using Dashboard.Data.Claims;
using Xunit.Abstractions;

namespace Dashboard.Data.Tests.Claims;

/// <summary>The five verdicts over the whole catalogue on a synthetic same-machine run (issue #34 item 5).</summary>
public sealed class ClaimEvaluatorVerdictsTests(ITestOutputHelper output)
{
    // A same-machine run of 3 repetitions per level: unsecure/secure pairs, the binary and SOAP variants, at 1 and 20 clients,
    // wire bytes counted (SOAP 1.1 664, FastInfoset 310, Ice 70 bytes per round trip).
    private static List<ClaimLevel> SameMachineRun()
    {
        (string Variant, double Rps, double? Bytes)[] variants =
        [
            ("MetroSoap11", 1000, 664), ("MetroSoap11Https", 500, 700), ("MetroSoap11FastInfoset", 1200, 310), ("MetroSoap12Wsa", 900, 900),
            ("IceTcp", 4000, 70), ("IceSsl", 2000, 90), ("AspNetUdsBinXml", 6000, null), ("AspNetH2BinXml", 5000, null),
        ];
        var levels = new List<ClaimLevel>();
        foreach (var (variant, rps, bytes) in variants)
        {
            foreach (var clients in new[] { 1, 20 })
            {
                foreach (var payload in new[] { "Int", "Get256Bytes" })
                {
                    levels.Add(ClaimLevels.Of(variant, "java", payload, clients, [rps * 1.01, rps, rps * 0.99],
                        requestBytes: bytes / 2, responseBytes: bytes / 2));
                }
            }
        }

        return levels;
    }

    [Fact]
    public void EvaluateAll_SameMachineRun_NoClaimInconclusiveWithoutALevelCounted()
    {
        var results = ClaimEvaluator.Default.EvaluateAll(SameMachineRun(), all: true);

        foreach (var group in results.GroupBy(r => r.Verdict).OrderBy(g => g.Key))
        {
            output.WriteLine($"{group.Key}: {group.Count()}");
        }

        // Inconclusive means both sides were measured and the test could not tell; a side without any level is "not measured".
        Assert.DoesNotContain(results, r => r.Verdict == ClaimVerdict.Inconclusive && r.Contrasts.All(c => !c.Covered));
        // The cross-machine claims of thesis 9.1.1 have no emulated-lan level in a same-machine run.
        Assert.All(results.Where(r => r.Claim.Id.StartsWith("thesis-9.1.1-cross-machine", StringComparison.Ordinal)),
            r => Assert.Equal(ClaimVerdict.NotMeasuredInTheseRuns, r.Verdict));
        Assert.Equal(ClaimCatalogue.All.Count, results.Count);
        Assert.Equal(5, Enum.GetValues<ClaimVerdict>().Length);
    }
}
