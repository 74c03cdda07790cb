using Dashboard.Web.Options;

namespace Dashboard.Web.Agents;

/// <summary>Registration of the load agents' services (docs/agents.md).</summary>
public static class AgentsExtensions
{
    /// <summary>Options <c>Dashboard:Agents</c>, the agent directory and, in PostgreSQL mode, the local agent child.</summary>
    public static IHostApplicationBuilder AddAgents(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<AgentsOptions>().Bind(builder.Configuration.GetSection(AgentsOptions.Section))
            .ValidateDataAnnotations()
            .Validate(o => o.LocalAgentName is null || Data.Agents.AgentQueues.ValidationError(o.LocalAgentName) is null, "Dashboard:Agents:LocalAgentName: at most 40 characters, no spaces")
            .ValidateOnStart();
        // The agents share the results database in PostgreSQL mode (Dashboard:Storage, ConnectionStrings:Results: DashboardOptions).
        builder.Services.AddSingleton(sp => sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<DashboardOptions>>().Value is var o && o.Storage == Data.StorageProvider.PostgreSql
            ? new AgentSettingsSource(o.ResultsConnectionString)
            : new AgentSettingsSource((string?)null));
        builder.Services.AddSingleton(sp => new AgentDirectory(sp.GetRequiredService<AgentSettingsSource>().ConnectionString));
        builder.Services.AddSingleton<LocalAgent>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<LocalAgent>());
        return builder;
    }
}
