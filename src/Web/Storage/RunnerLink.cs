using System.Text.Json;
using Dashboard.Data.Runs;

namespace Dashboard.Web.Storage;

/// <summary>
/// How a dashboard run (queued by the dashboard, the permalink's id) is tied to the row the runner creates for
/// itself when it starts: kept in the dashboard row's <c>EnvironmentJson</c> while the run is running, so a restart
/// can find the runner's row and its process. Replaced by the runner's environment when the rows are merged.
/// Goes away once the runner can continue a queued row itself (<c>--run-id</c>, asked of the lead).
/// </summary>
/// <param name="RunnerRunId">The runner's own run id, once its <c>run-started</c> event arrived.</param>
/// <param name="RunnerPid">The runner's process id.</param>
/// <param name="RunnerProcess">The runner's process id with its start time, so a restarted dashboard never signals a process that got the id since; null in rows written before it was recorded.</param>
public sealed record RunnerLink(int? RunnerRunId, int? RunnerPid, ProcessIdentity? RunnerProcess = null)
{
    private const string Property = "dashboardRunner";

    /// <summary>The JSON stored in <c>EnvironmentJson</c>.</summary>
    public string ToJson() => JsonSerializer.Serialize(new Dictionary<string, RunnerLink> { [Property] = this }, JsonSerializerOptions.Web);

    /// <summary>Reads a link from a row's <c>EnvironmentJson</c>; null when the row holds none (not a dashboard run in progress).</summary>
    public static RunnerLink? From(string? environmentJson)
    {
        if (string.IsNullOrEmpty(environmentJson))
        {
            return null;
        }

        try
        {
            var map = JsonSerializer.Deserialize<Dictionary<string, JsonElement>>(environmentJson, JsonSerializerOptions.Web);
            return map is not null && map.TryGetValue(Property, out var value)
                ? value.Deserialize<RunnerLink>(JsonSerializerOptions.Web)
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
