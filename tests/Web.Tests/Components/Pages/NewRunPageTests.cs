using System.Text.RegularExpressions;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages;

/// <summary>The New run page in Chromium, clicked as a user clicks it.</summary>
public sealed partial class NewRunPageTests(BrowserFixture fixture) : IClassFixture<BrowserFixture>
{
    [Fact]
    public async Task Levels_OutOfRange_ShowsErrorNamingTheField()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        await page.GetByTestId("levels").FillAsync("1, 0");
        await page.GetByTestId("levels").PressAsync("Tab");

        await Expect(page.GetByTestId("error-levels")).ToContainTextAsync("Concurrency level 2: 0 is out of range");
    }

    [Fact]
    public async Task Variants_Unavailable_DisabledWithTheirReason()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        await Expect(page.GetByTestId("variant-CoreWcf")).ToBeDisabledAsync();
        await Expect(page.GetByTestId("reason-CoreWcf")).ToContainTextAsync("not available in this build");
        await Expect(page.GetByTestId("variant-AspNetHttpJson")).ToBeEnabledAsync();
    }

    [Fact]
    public async Task Variants_ThesisScenarioWithoutEquivalent_ListedDisabledWithReasonAndNearest()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        var pipe = page.GetByTestId("no-equivalent-PipeTptSgnWin");
        await Expect(pipe.Locator("input")).ToBeDisabledAsync();
        await Expect(pipe).ToContainTextAsync("named pipes are a Windows transport");
        await Expect(pipe).ToContainTextAsync("nearest: AspNetUdsBinXmlPeer");
        await Expect(page.GetByTestId("no-equivalent-TcpMsgWin")).ToContainTextAsync("Kerberos");
    }

    [Fact]
    public async Task ClientVariantPair_NoneWorks_ShownAndRefusedAtClients()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        await page.GetByTestId("variant-IceTcp").CheckAsync();
        await page.GetByTestId("client-dotnet").CheckAsync();

        await Expect(page.GetByTestId("impossible-dotnet-IceTcp")).ToBeVisibleAsync();
        await Expect(page.GetByTestId("error-clients")).ToContainTextAsync("no chosen client can call any chosen variant: the dotnet client cannot call IceTcp");
        await Expect(page.GetByTestId("error-clients")).Not.ToContainTextAsync("DESIGN");
    }

    [Fact]
    public async Task MixedScenario_DotnetAndJavaOverJsonAndIce_SkippedPairsListedThenQueued()
    {
        var page = await fixture.NewPageAsync(1280, 900);
        await page.GotoAsync("runs/new");

        await page.GetByTestId("name").FillAsync("mixed from the browser");
        await page.GetByTestId("variant-AspNetHttpJson").CheckAsync();
        await page.GetByTestId("variant-IceTcp").CheckAsync();
        await page.GetByTestId("client-dotnet").CheckAsync();
        await page.GetByTestId("client-java").CheckAsync();
        await page.GetByTestId("payload-Int").CheckAsync();
        await page.GetByTestId("levels").FillAsync("1, 2");
        await page.GetByTestId("levels").PressAsync("Tab");

        await Expect(page.GetByTestId("skipped-pairs")).ToContainTextAsync("2 pairs are skipped");
        await Expect(page.GetByTestId("skipped-java-AspNetHttpJson")).ToContainTextAsync("the java client calls only the gRPC, Metro (SOAP), Ice and WCF bindings variants");
        await Expect(page.GetByTestId("skipped-dotnet-IceTcp")).ToBeVisibleAsync();
        await Expect(page.GetByTestId("estimate")).ToContainTextAsync("Takes ≈");
        await Expect(page.GetByTestId("error-clients")).ToHaveCountAsync(0);
        // The Queue button stays in view after scrolling to the bottom of the form (sticky action panel).
        await page.GetByTestId("scenario-json").ScrollIntoViewIfNeededAsync();
        await Expect(page.GetByTestId("queue-run")).ToBeInViewportAsync();

        await page.GetByTestId("queue-run").ClickAsync();

        await Expect(page).ToHaveURLAsync(RunPageUrl());
        await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToContainTextAsync("mixed from the browser");
    }

    [Fact]
    public async Task Queue_ValidScenario_OpensRunPageThatCompletes()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        await page.GetByTestId("name").FillAsync("complete from the browser");
        await page.GetByTestId("variant-AspNetHttpJson").CheckAsync();
        await page.GetByTestId("client-dotnet").CheckAsync();
        await page.GetByTestId("payload-Int").CheckAsync();
        await page.GetByTestId("levels").FillAsync("1, 2");
        await page.GetByTestId("levels").PressAsync("Tab");
        await page.GetByTestId("queue-run").ClickAsync();

        await Expect(page).ToHaveURLAsync(RunPageUrl());
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed", new() { Timeout = 60_000 });
        await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToContainTextAsync("complete from the browser");
    }

    [Fact]
    public async Task Host_TypedThenEnterAtOnce_QueuedRunTargetsTheTypedHost()
    {
        // Issue #36 item 1: typing an address and pressing Enter at once used to put the field back to the local host.
        using (var register = await fixture.App.Http.PostAsync("/api/hosts", System.Net.Http.Json.JsonContent.Create(new { address = "http://10.9.9.9:5090", token = "remote-host-token" })))
        {
            Assert.True(register.IsSuccessStatusCode, await register.Content.ReadAsStringAsync());
        }

        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");
        await page.GetByTestId("name").FillAsync("typed host from the browser");
        await page.GetByTestId("variant-AspNetHttpJson").CheckAsync();
        await page.GetByTestId("client-dotnet").CheckAsync();
        await page.GetByTestId("payload-Int").CheckAsync();
        await page.GetByTestId("levels").FillAsync("1");
        await page.GetByTestId("levels").PressAsync("Tab");

        await page.Locator("#host").FillAsync("http://10.9.9.9:5090");
        await page.Locator("#host").PressAsync("Enter");
        await page.GetByTestId("queue-run").ClickAsync();

        await Expect(page).ToHaveURLAsync(RunPageUrl());
        var id = int.Parse(RunPageUrl().Match(page.Url).Value.Split('/')[^1], System.Globalization.CultureInfo.InvariantCulture);
        var run = await fixture.App.Http.GetStringAsync($"/api/runs/{id}");
        Assert.Contains("http://10.9.9.9:5090", run, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Queue_WithErrors_StaysAndListsThem()
    {
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("runs/new");

        await page.GetByTestId("queue-run").ClickAsync();

        await Expect(page.GetByTestId("error-summary")).ToContainTextAsync("Endpoint variants: choose at least one endpoint variant");
        await Expect(page.GetByTestId("error-variants")).ToBeVisibleAsync();
        Assert.EndsWith("/runs/new", page.Url, StringComparison.Ordinal);
    }

    [GeneratedRegex(@"/runs/\d+$")]
    private static partial Regex RunPageUrl();
}
