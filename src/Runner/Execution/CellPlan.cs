using Dashboard.Runner.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Execution;

/// <summary>One variant × client × payload cell; <see cref="Driver"/> is null when the cell's load comes from load agents.</summary>
public sealed record Cell(HostEndpoint Endpoint, string ClientId, IClientDriver? Driver, PayloadCase Payload);

/// <summary>Which cells a run measures: the scenario's variants, clients and payloads against what the host serves.</summary>
public static class CellPlan
{
    /// <summary>
    /// The cells of <paramref name="scenario"/> (validated: its payload ids and client × variant pairs are known) against
    /// what the host serves, in the scenario's order (variants × clients × payloads); a pair the client cannot call is
    /// skipped (<see cref="ScenarioCells"/>).
    /// </summary>
    /// <param name="scenario">The validated scenario.</param>
    /// <param name="endpoints">What the host serves.</param>
    /// <param name="topologyName">The run's topology: an on-machine-only endpoint cannot be reached across machines.</param>
    /// <param name="drivers">The client technologies of this build; null when the load comes from load agents (they checked theirs).</param>
    /// <exception cref="ScenarioException">The host does not serve a variant, a variant cannot be reached in this topology, or a client technology is not in this build.</exception>
    public static List<Cell> Of(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints, string topologyName, ClientDriverRegistry? drivers)
    {
        var cells = new List<Cell>();
        for (var v = 0; v < scenario.Variants.Count; v++)
        {
            var endpoint = endpoints.FirstOrDefault(e => e.Name == scenario.Variants[v])
                ?? throw new ScenarioException($"variants[{v}]",
                    $"the host does not serve '{scenario.Variants[v]}'; it serves {string.Join(", ", endpoints.Select(e => e.Name))}");
            if (endpoint.OnMachineOnly && Topology.IsCrossMachine(topologyName))
            {
                throw new ScenarioException($"variants[{v}]",
                    $"'{endpoint.Name}' is on-machine only ({endpoint.Address}): a Unix socket cannot be reached across topology '{topologyName}'");
            }

            for (var c = 0; c < scenario.Clients.Count; c++)
            {
                if (!ScenarioCells.CanCall(scenario.Variants[v], scenario.Clients[c]))
                {
                    continue; // a pair the client cannot call is skipped (ScenarioCells); the validator refused the scenario if none works
                }

                IClientDriver? driver = null;
                try
                {
                    // With load agents the clients run on them (the runner checked they have the technology).
                    driver = drivers?.Get(scenario.Clients[c]);
                }
                catch (ClientUnavailableException e)
                {
                    throw new ScenarioException($"clients[{c}]", e.Message, e);
                }

                if (scenario.IsOpen && driver is not null and not InProcessClientDriver)
                {
                    // The validator refuses the external clients by id; a driver of another kind is refused here, by kind.
                    throw new ScenarioException($"clients[{c}]",
                        $"the {scenario.Clients[c]} client runs its own load loop outside the runner, so it cannot run open levels (workload \"open\"): the runner schedules every request of an open level itself");
                }

                foreach (var payloadId in scenario.Payloads)
                {
                    // The validator refused an unknown payload id: not checked again here.
                    PayloadCatalogue.TryGet(payloadId, out var payload);
                    cells.Add(new Cell(endpoint, scenario.Clients[c], driver, payload!));
                }
            }
        }

        return cells;
    }
}
