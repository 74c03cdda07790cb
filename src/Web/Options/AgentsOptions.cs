using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Options;

/// <summary>
/// Section <c>Dashboard:Agents</c> (docs/agents.md): the load agents of the PostgreSQL mode. The dashboard's own machine
/// is an agent too: in PostgreSQL mode the dashboard starts one as its child (it ends with the dashboard).
/// </summary>
public sealed class AgentsOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:Agents";

    /// <summary>Start the local agent in PostgreSQL mode (<c>--Dashboard:Agents:StartLocalAgent=false</c> to rely on agents started by hand).</summary>
    public bool StartLocalAgent { get; set; } = true;

    /// <summary>The local agent's name; null: the machine name.</summary>
    [StringLength(40)]
    public string? LocalAgentName { get; set; }

    /// <summary>How often the Agents page reloads the list.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:01:00")]
    public TimeSpan PageRefresh { get; set; } = TimeSpan.FromSeconds(2);
}
