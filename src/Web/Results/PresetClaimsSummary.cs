using System.Globalization;
using Dashboard.Data.Claims;

namespace Dashboard.Web.Results;

/// <summary>What a preset card says about its claims (the preset card's <c>PresetClaims</c> line): the runs counted, the verdict counts and the link.</summary>
/// <param name="RunIds">The last completed run of each part here; empty when none ran here yet.</param>
/// <param name="Text">"3 hold · 1 does not · 2 inconclusive · 1 not measured · 1 not measurable" (verdicts with no claim left out).</param>
/// <param name="Link">The claims panel of those runs listing the preset's claims: the run page (<c>/runs/7?claims=open&amp;preset=4#claims</c>) or the compare page of several.</param>
public sealed record PresetClaimsSummary(IReadOnlyList<int> RunIds, string Text, string Link)
{
    /// <summary>"3 hold · 1 does not · 2 inconclusive · 1 not measurable": each verdict with its count, in that order, zeros left out; "no claim" when empty.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="results"/> is null.</exception>
    public static string CountText(IReadOnlyList<ClaimResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        (ClaimVerdict Verdict, string One, string Many)[] words =
        [
            (ClaimVerdict.Holds, "holds", "hold"),
            (ClaimVerdict.DoesNotHold, "does not", "do not"),
            (ClaimVerdict.Inconclusive, "inconclusive", "inconclusive"),
            (ClaimVerdict.NotMeasuredInTheseRuns, "not measured", "not measured"),
            (ClaimVerdict.NotMeasurable, "not measurable", "not measurable"),
        ];
        var parts = words
            .Select(w => (w, n: results.Count(r => r.Verdict == w.Verdict)))
            .Where(x => x.n > 0)
            .Select(x => string.Create(CultureInfo.InvariantCulture, $"{x.n} {(x.n == 1 ? x.w.One : x.w.Many)}"))
            .ToList();
        return parts.Count == 0 ? "no claim" : string.Join(" · ", parts);
    }

    /// <summary>
    /// The claims panel of <paramref name="runIds"/> listing the claims of preset <paramref name="preset"/>, the ones its
    /// card counts: one run's page with the panel open (<c>/runs/7?claims=open&amp;preset=4#claims</c>), or the compare page
    /// of several (<c>/compare?runs=7,9&amp;preset=1#claims</c>).
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="runIds"/> is empty.</exception>
    public static string LinkTo(IReadOnlyList<int> runIds, int preset)
    {
        ArgumentNullException.ThrowIfNull(runIds);
        if (runIds.Count == 0)
        {
            throw new ArgumentException("At least one run is needed.", nameof(runIds));
        }

        return runIds.Count == 1
            ? string.Create(CultureInfo.InvariantCulture, $"/runs/{runIds[0]}?claims=open&preset={preset}#claims")
            : string.Create(CultureInfo.InvariantCulture, $"/compare?runs={string.Join(',', runIds)}&preset={preset}#claims");
    }
}
