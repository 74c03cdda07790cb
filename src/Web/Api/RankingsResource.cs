using Dashboard.Data.Results;

namespace Dashboard.Web.Api;

/// <summary>The answer of <c>GET /api/runs/{id}/rankings</c>.</summary>
/// <param name="RunId">The run.</param>
/// <param name="FromClients">Only levels with at least this many clients were counted.</param>
/// <param name="SplitBySecurity">True when unsecure and secure variants are ranked in separate tables.</param>
/// <param name="Tables">The tables (<see cref="Rankings.Compute"/>): unsecure before secure, payload classes then overall, throughput before response time.</param>
public sealed record RankingsResource(int RunId, int FromClients, bool SplitBySecurity, IReadOnlyList<RankingTable> Tables);
