using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// The dashboard's own load agent and the agents' list (docs/agents.md) with everything real: a PostgreSQL 15 of the
/// test's own, the built dashboard in PostgreSQL mode, the built runner as its agent child, Chromium for the page.
/// </summary>
public sealed class AgentsTests : IAsyncLifetime
{
    private PostgresServer _postgres = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _postgres = await PostgresServer.StartAsync();
        _tmp = Directory.CreateTempSubdirectory("agents-e2e-tmp-").FullName;
    }

    public async Task DisposeAsync()
    {
        await _postgres.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    [Fact]
    public async Task LocalAgent_PostgreSqlMode_ListedOnlineOnApiAndPageAndEndsWithTheDashboard()
    {
        var connection = await _postgres.CreateDatabaseAsync("agents");
        var app = await WebApp.StartAsync(
            environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp, ["ConnectionStrings__Results"] = connection },
            extraArguments:
            [
                "--Dashboard:Storage=PostgreSql",
                $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
                "--Dashboard:Agents:LocalAgentName=web-local",
            ]);
        var root = app.Root;
        try
        {
            JsonElement agent = default;
            Assert.True(await Eventually.HoldsAsync(async () =>
            {
                var list = await app.Http.GetFromJsonAsync<JsonElement>("/api/agents");
                agent = list.EnumerateArray().FirstOrDefault(a => a.GetProperty("name").GetString() == "web-local");
                return agent.ValueKind == JsonValueKind.Object && agent.GetProperty("state").GetString() == "Online";
            }, TimeSpan.FromSeconds(90)), app.Log);
            Assert.Equal("agent_web-local", agent.GetProperty("queue").GetString());
            Assert.Equal(Environment.ProcessorCount, agent.GetProperty("cores").GetInt32());
            Assert.Contains("dotnet", agent.GetProperty("technologies").EnumerateArray().Select(t => t.GetString()));

            using var playwright = await Playwright.CreateAsync();
            await using var browser = await LaunchAsync(playwright);
            var page = await OpenAgentsPageAsync(browser, app);
            await Expect(page.GetByTestId("state-web-local")).ToHaveTextAsync("Online");
            await Expect(page.GetByTestId("technologies-web-local")).ToContainTextAsync("dotnet");
            await Expect(page.GetByRole(AriaRole.Link, new() { Name = "Agents" })).ToBeVisibleAsync();

            // The agent is the dashboard's child: killed with the dashboard (SIGKILL), it signs off by itself.
            await app.CrashAsync();
            await using var db = new Npgsql.NpgsqlConnection(connection);
            await db.OpenAsync();
            string? reason = null;
            Assert.True(await Eventually.HoldsAsync(async () =>
            {
                await using var command = new Npgsql.NpgsqlCommand("SELECT stop_reason FROM dashboard_agents WHERE name = 'web-local'", db);
                reason = await command.ExecuteScalarAsync() as string;
                return reason is not null;
            }, TimeSpan.FromSeconds(30)), "the local agent did not sign off after the dashboard died");
            Assert.Contains("standard input", reason, StringComparison.Ordinal);
        }
        finally
        {
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public async Task ListAgents_SqliteMode_EmptyAndThePageSaysWhy()
    {
        var app = await WebApp.StartAsync(environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp });
        var root = app.Root;
        try
        {
            var list = await app.Http.GetFromJsonAsync<JsonElement>("/api/agents");
            Assert.Equal(0, list.GetArrayLength());
            using var playwright = await Playwright.CreateAsync();
            await using var browser = await LaunchAsync(playwright);
            var page = await OpenAgentsPageAsync(browser, app);
            await Expect(page.GetByTestId("agents-disabled")).ToContainTextAsync("agents need the PostgreSQL mode");
        }
        finally
        {
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    private static Task<IBrowser> LaunchAsync(IPlaywright playwright) => playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
    {
        ExecutablePath = BrowserFixture.ChromiumPath,
        Headless = true,
        Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });

    private static async Task<IPage> OpenAgentsPageAsync(IBrowser browser, WebApp app)
    {
        var page = await browser.NewPageAsync(new BrowserNewPageOptions { BaseURL = app.BaseAddress.ToString(), ExtraHTTPHeaders = app.BrowserHeaders });
        page.SetDefaultTimeout(30_000);
        await page.GotoAsync("agents");
        return page;
    }
}
