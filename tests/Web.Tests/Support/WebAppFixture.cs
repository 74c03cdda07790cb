namespace Dashboard.Web.Tests.Support;

/// <summary>One dashboard shared by the tests of a class.</summary>
public sealed class WebAppFixture : IAsyncLifetime
{
    /// <summary>The dashboard.</summary>
    public WebApp App { get; private set; } = null!;

    /// <inheritdoc />
    public async Task InitializeAsync() => App = await WebApp.StartAsync();

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        var root = App.Root;
        await App.DisposeAsync();
        WebApp.DeleteRoot(root);
    }
}
