using Xunit;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("Dashboard.Runner.Tests.Support.LongestFirstCollectionOrderer", "Dashboard.Runner.Tests")]

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// Starts the longest test collection first. xunit runs two collections at a time on this 2-core machine, in the order
/// an orderer gives; by default <see cref="Clients.External.JvmHostGroup"/> (one JVM service host shared by the
/// conformance and refusal tests, about 470 s in a row) started after about 260 s and then ran alone for its last
/// 6 minutes. Started first, the other collections share the second slot beside it (longest-processing-time-first).
/// Every other collection keeps xunit's default order.
/// </summary>
public sealed class LongestFirstCollectionOrderer : ITestCollectionOrderer
{
    /// <summary>Collection names to start first, longest first.</summary>
    private static readonly string[] First = [Clients.External.JvmHostGroup.Name];

    /// <inheritdoc />
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections)
    {
        var all = new DefaultTestCollectionOrderer().OrderTestCollections(testCollections).ToList();
        return [.. all.OrderBy(c => Array.IndexOf(First, c.DisplayName) is var i and >= 0 ? i : First.Length)];
    }
}
