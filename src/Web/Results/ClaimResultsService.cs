using Dashboard.Data;
using Dashboard.Data.Claims;
using Dashboard.Data.Entities;
using Dashboard.Web.Scenarios;
using Microsoft.EntityFrameworkCore;
using Dashboard.Data.Queries;

namespace Dashboard.Web.Results;

/// <summary>The claims of some runs: the levels the verdicts were computed from, the runs' facts and the verdicts.</summary>
/// <param name="Inputs">Per-level figures and run facts read for the claims (<see cref="ClaimQueries.LoadAsync"/>).</param>
/// <param name="Claims">One verdict per claim (<see cref="ClaimEvaluator.EvaluateAll"/>).</param>
public sealed record ClaimVerdicts(ClaimInputs Inputs, IReadOnlyList<ClaimResult> Claims);

/// <summary>
/// The claims read model the claims panel, the preset cards and the claims API share (no component or handler opens a
/// database context): verdicts of the claims of the source documents (docs/claims.md) over the given runs.
/// </summary>
public sealed class ClaimResultsService(IDbContextFactory<ResultsDbContext> contexts)
{
    /// <summary>The evaluator every view uses (its method text is shown beside the verdicts).</summary>
    public ClaimEvaluator Evaluator { get; } = ClaimEvaluator.Default.WithPresetTitles(PresetCatalogue.All
        .Where(p => p.Number is not null).GroupBy(p => p.Number!.Value).ToDictionary(g => g.Key, g => g.First().Title));

    /// <summary>
    /// The claims of preset <paramref name="preset"/> (those whose <c>presets</c> name it, in catalogue order): what its
    /// card on Home counts and what the claims panel lists when opened from that card (<c>?preset=</c>).
    /// </summary>
    public static IReadOnlyList<Claim> ClaimsOfPreset(int preset) => [.. ClaimCatalogue.All.Where(c => c.Presets.Contains(preset))];

    /// <summary>
    /// The verdicts of the claims over the levels of <paramref name="runIds"/>: only the claims those levels concern
    /// unless <paramref name="all"/>; of <paramref name="claims"/> when given, else of every claim in the catalogue.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="runIds"/> is null.</exception>
    public async Task<ClaimVerdicts> EvaluateAsync(IReadOnlyCollection<int> runIds, bool all, IReadOnlyList<Claim>? claims, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runIds);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var inputs = await ClaimQueries.LoadAsync(db, runIds, cancellationToken);
        return new ClaimVerdicts(inputs, Evaluator.EvaluateAll(inputs.Levels, all, claims));
    }

    /// <summary>
    /// The last completed run here of each part of <paramref name="group"/> (a run's scenario name is its file's
    /// <c>name</c>); of a part's quick and full files, the newer run counts. Sorted by id; empty when none ran.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="group"/> is null.</exception>
    public async Task<IReadOnlyList<int>> LastRunsAsync(PresetGroup group, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(group);
        var files = group.Quick.Concat(group.Full).Where(p => p.Document?.Name is { Length: > 0 }).ToList();
        var names = files.Select(p => p.Document!.Name).Distinct(StringComparer.Ordinal).ToList();
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var last = await db.Runs.AsNoTracking()
            .Where(r => r.Status == RunStatus.Completed && names.Contains(r.ScenarioName))
            .GroupBy(r => r.ScenarioName)
            .Select(g => new { Name = g.Key, Id = g.Max(r => r.Id) })
            .ToDictionaryAsync(x => x.Name, x => x.Id, StringComparer.Ordinal, cancellationToken);
        return [.. files
            .Where(p => last.ContainsKey(p.Document!.Name))
            .GroupBy(p => p.IsQuick ? p.FileName : p.PairedFileName ?? p.FileName, StringComparer.Ordinal)
            .Select(part => part.Max(p => last[p.Document!.Name]))
            .Distinct()
            .Order()];
    }
}
