using Dashboard.Data.Agents;

namespace Dashboard.Data.Tests.Agents;

public sealed class ClientSplitTests
{
    [Theory]
    [InlineData(30, 3, new[] { 10, 10, 10 })]
    [InlineData(10, 3, new[] { 4, 3, 3 })]
    [InlineData(2, 3, new[] { 1, 1 })]
    [InlineData(1, 1, new[] { 1 })]
    public void Split_ClientsOverAgents_AsEvenAsPossibleRemainderFirst(int clients, int agents, int[] expected)
    {
        var names = Enumerable.Range(1, agents).Select(i => $"a{i}").ToList();

        var shares = ClientSplit.Split(clients, names);

        Assert.Equal(expected, shares.Select(s => s.Clients));
        Assert.Equal(names.Take(expected.Length), shares.Select(s => s.Agent));
        Assert.Equal(clients, shares.Sum(s => s.Clients));
    }

    [Fact]
    public void Split_NoAgents_Throws() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => ClientSplit.Split(3, []));
}
