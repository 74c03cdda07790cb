using Dashboard.Service.Contracts.Security;

namespace Dashboard.Service.Tests.Contracts.Security;

public sealed class HostControlTokenTests
{
    [Theory]
    [InlineData("Bearer abcdefghijklmnopq", true)]
    [InlineData("bearer abcdefghijklmnopq", true)]
    [InlineData("Bearer abcdefghijklmnop", false)]
    [InlineData("Bearer abcdefghijklmnopqr", false)]
    [InlineData("Basic abcdefghijklmnopq", false)]
    [InlineData("abcdefghijklmnopq", false)]
    [InlineData(null, false)]
    public void Matches_HeaderValue_OnlyBearerWithTheSameToken(string? header, bool expected) =>
        Assert.Equal(expected, HostControlToken.Matches(header, "abcdefghijklmnopq"));

    [Fact]
    public void Generate_TwoTokens_DifferAndAreUrlSafe()
    {
        var (a, b) = (HostControlToken.Generate(), HostControlToken.Generate());

        Assert.NotEqual(a, b);
        Assert.All([a, b], t => Assert.Matches("^[A-Za-z0-9_-]{43}$", t));
    }
}
