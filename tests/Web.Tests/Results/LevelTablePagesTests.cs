using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Web.Results;

namespace Dashboard.Web.Tests.Results;

public sealed class LevelTablePagesTests
{
    private static IReadOnlyList<LevelAggregate> Rows() => LevelAggregation.Aggregate(Enumerable.Range(1, 30).Select(i => new LevelEntity
    {
        Variant = "IceTcp", Client = "java", Payload = "Int", Clients = i, Repetition = 1, Requests = 10, ThroughputRps = 1000 - i, MeanMs = i,
    }));

    [Fact]
    public void Page_SecondPageOfTen_RowsElevenToTwentyAndTotal()
    {
        var page = LevelTablePages.Page(Rows(), 1, 10, null);

        Assert.Equal(30, page.TotalItems);
        Assert.Equal(Enumerable.Range(11, 10), page.Items.Select(a => a.Clients));
    }

    [Fact]
    public void Page_SortedByThroughputDescending_HighestFirst()
    {
        var page = LevelTablePages.Page(Rows(), 0, 5, (a => a.ThroughputRps.Mean, true));

        Assert.Equal([999.0, 998, 997, 996, 995], page.Items.Select(a => a.ThroughputRps.Mean));
    }
}
