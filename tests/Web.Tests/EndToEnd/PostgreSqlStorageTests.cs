using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using Npgsql;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// <c>Dashboard:Storage=PostgreSql</c> with everything real (docs/architecture.md, "Storage"): a PostgreSQL 15 of the
/// test's own, the built dashboard, the built runner and the real service host. The run's samples and the queue's jobs
/// are in PostgreSQL; the data folder gets neither results.db nor hangfire.db.
/// </summary>
public sealed class PostgreSqlStorageTests : IAsyncLifetime
{
    private PostgresServer _postgres = null!;
    private ServiceHostProcess _host = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _postgres = await PostgresServer.StartAsync();
        _host = await ServiceHostProcess.StartAsync();
        // Own TMPDIR for this dashboard's runner: its own machine lock, apart from other test assemblies' runners.
        _tmp = Directory.CreateTempSubdirectory("pg-e2e-tmp-").FullName;
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        await _postgres.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    // The built dashboard in PostgreSQL mode on <connection>, with its own TMPDIR and the built runner.
    private Task<WebApp> StartDashboardAsync(string connection, params string[] more) => WebApp.StartAsync(
        environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp, ["ConnectionStrings__Results"] = connection },
        extraArguments:
        [
            "--Dashboard:Storage=PostgreSql",
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            // Runs may only target registered hosts (docs/security.md): this test's host is the dashboard's local one.
            $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}",
            .. more,
        ]);

    private static Task<IBrowser> LaunchAsync(IPlaywright playwright) => playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
    {
        ExecutablePath = BrowserFixture.ChromiumPath,
        Headless = true,
        Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });

    [Fact]
    public async Task Queue_RealScenarioWithPostgreSqlStorage_SamplesAndJobsLiveInPostgreSql()
    {
        var connection = await _postgres.CreateDatabaseAsync("e2e");
        var app = await StartDashboardAsync(connection);
        try
        {
            // 2 levels (1 and 3 clients) × (20 measured + 2 warm-up requests per client) = 88 samples, 80 measured.
            var scenario = $$"""
                {"name": "postgresql storage", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"],
                 "clients": ["dotnet"], "payloads": ["Int"], "levels": [1, 3], "requestsPerClient": 20, "warmup": 2}
                """;
            using var response = await app.PostScenarioAsync(scenario);
            var created = await response.Content.ReadFromJsonAsync<JsonElement>();
            Assert.True(response.IsSuccessStatusCode, created.ToString());
            var id = created.GetProperty("id").GetInt32();
            await Eventually.HoldsAsync(async () => await app.StatusAsync(id) is "Completed" or "Failed" or "Interrupted", TimeSpan.FromMinutes(2));
            Assert.True(await app.StatusAsync(id) == "Completed", app.Log);

            // The samples are in PostgreSQL, each level's within its id range.
            await using (var db = new NpgsqlConnection(connection))
            {
                await db.OpenAsync();
                Assert.Equal(88L, await ScalarAsync(db, $"""SELECT count(*) FROM "Samples" s JOIN "Levels" l ON s."LevelId" = l."Id" AND s."Id" BETWEEN l."FirstSampleId" AND l."LastSampleId" WHERE l."RunId" = {id}"""));
                Assert.Equal(80L, await ScalarAsync(db, $"""SELECT count(*) FROM "Samples" s JOIN "Levels" l ON s."LevelId" = l."Id" WHERE l."RunId" = {id} AND NOT s."IsWarmup" """));
                Assert.Equal(80L, await ScalarAsync(db, $"""SELECT sum("Requests") FROM "Levels" WHERE "RunId" = {id}"""));
                // The queue's job is in Hangfire's schema of the same database (Succeeded once the worker sees the
                // runner end, a moment after the runner marked the run Completed).
                Assert.True(
                    await Eventually.HoldsAsync(async () => await ScalarAsync(db, """SELECT count(*) FROM hangfire.job WHERE statename = 'Succeeded'""") >= 1, TimeSpan.FromSeconds(30)),
                    "no Succeeded job in hangfire.job within 30 s");
            }

            Assert.False(File.Exists(app.DatabasePath), "no SQLite results.db in PostgreSql mode");
            Assert.False(File.Exists(Path.Combine(app.DataFolder, "hangfire.db")), "no SQLite queue in PostgreSql mode");

            // The dashboard reads them back: the raw samples CSV (1 header line + 88 rows), and the run page.
            var csv = await app.Http.GetStringAsync($"/api/runs/{id}/samples.csv");
            Assert.Equal(1 + 88, csv.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
            var levels = await app.Http.GetStringAsync($"/api/runs/{id}/levels.csv");
            Assert.Equal(1 + 2, levels.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
            // Every other read of the run translates on PostgreSQL too (a query SQLite accepts and Npgsql cannot would fail here).
            foreach (var path in new[] { "", "/aggregates.csv", "/rankings", "/environment", "/claims", "/report.md" })
            {
                using var read = await app.Http.GetAsync($"/api/runs/{id}{path}");
                Assert.True(read.IsSuccessStatusCode, $"/api/runs/{id}{path}: {(int)read.StatusCode} {await read.Content.ReadAsStringAsync()}");
            }

            Assert.Contains($"\"id\":{id}", await app.Http.GetStringAsync("/api/runs"), StringComparison.Ordinal);
            using var playwright = await Playwright.CreateAsync();
            await using var browser = await LaunchAsync(playwright);
            var page = await browser.NewPageAsync(new BrowserNewPageOptions { BaseURL = app.BaseAddress.ToString(), ExtraHTTPHeaders = app.BrowserHeaders });
            page.SetDefaultTimeout(30_000);
            await page.GotoAsync(created.GetProperty("permalink").GetString()!.TrimStart('/'));
            // Generous timeouts: a shared, busy machine renders the first circuit slowly.
            await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed", new() { Timeout = 30_000 });
            await Expect(page.GetByTestId("level-table")).ToContainTextAsync("AspNetHttpJson", new() { Timeout = 30_000 });
            await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync(new() { Timeout = 30_000 });
            // The compare page lists the runs from the database; no circuit error on the way.
            await page.GotoAsync("compare");
            await Expect(page.GetByTestId("compare-picker")).ToBeVisibleAsync(new() { Timeout = 30_000 });
            await Expect(page.Locator("#blazor-error-ui")).ToBeHiddenAsync();
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public async Task Queue_ScenarioOnTheLocalAgent_LevelsRunThereStoredTaggedAndTheRunPageShowsTheSplit()
    {
        var connection = await _postgres.CreateDatabaseAsync("e2e");
        var app = await StartDashboardAsync(connection, "--Dashboard:Agents:LocalAgentName=local-e2e");
        try
        {
            // The dashboard's own machine is an agent (its child); a scenario names it as a user would from New run.
            Assert.True(await Eventually.HoldsAsync(async () =>
                (await app.Http.GetFromJsonAsync<JsonElement>("/api/agents")).EnumerateArray().Any(a => a.GetProperty("name").GetString() == "local-e2e" && a.GetProperty("state").GetString() == "Online"),
                TimeSpan.FromSeconds(90)), "the local agent did not come online: " + app.Log);
            var scenario = $$"""
                {"name": "on the local agent", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"],
                 "clients": ["dotnet"], "payloads": ["Int"], "levels": [2, 4], "duration": "00:00:01", "warmup": 2, "agents": ["local-e2e"]}
                """;
            using var response = await app.PostScenarioAsync(scenario);
            var created = await response.Content.ReadFromJsonAsync<JsonElement>();
            Assert.True(response.IsSuccessStatusCode, created.ToString());
            var id = created.GetProperty("id").GetInt32();
            await Eventually.HoldsAsync(async () => await app.StatusAsync(id) is "Completed" or "Failed" or "Interrupted", TimeSpan.FromMinutes(3));
            Assert.True(await app.StatusAsync(id) == "Completed", app.Log);

            await using (var db = new NpgsqlConnection(connection))
            {
                await db.OpenAsync();
                // Every sample of the run came from the agent, tagged with its name; the levels record the split.
                Assert.Equal(0L, await ScalarAsync(db, $"""SELECT count(*) FROM "Samples" s JOIN "Levels" l ON s."LevelId" = l."Id" WHERE l."RunId" = {id} AND s."Agent" IS DISTINCT FROM 'local-e2e'"""));
                Assert.True(await ScalarAsync(db, $"""SELECT count(*) FROM "Samples" s JOIN "Levels" l ON s."LevelId" = l."Id" WHERE l."RunId" = {id} AND NOT s."IsWarmup" """) > 0);
                Assert.Equal(2L, await ScalarAsync(db, $"""SELECT count(*) FROM "Levels" WHERE "RunId" = {id} AND "AgentsJson" LIKE '%local-e2e%' AND "Complete" """));
            }

            var levels = await app.Http.GetStringAsync($"/api/runs/{id}/levels.csv");
            Assert.Contains("local-e2e 4", levels, StringComparison.Ordinal);
            Assert.Contains("local-e2e", await app.Http.GetStringAsync($"/api/runs/{id}/environment"), StringComparison.Ordinal);
            using var playwright = await Playwright.CreateAsync();
            await using var browser = await LaunchAsync(playwright);
            var page = await browser.NewPageAsync(new BrowserNewPageOptions { BaseURL = app.BaseAddress.ToString(), ExtraHTTPHeaders = app.BrowserHeaders });
            page.SetDefaultTimeout(30_000);
            await page.GotoAsync(created.GetProperty("permalink").GetString()!.TrimStart('/'));
            await Expect(page.GetByTestId("level-agents").First).ToContainTextAsync("local-e2e");
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public async Task Start_PostgreSqlWithoutConnectionString_RefusesNamingTheKey()
    {
        var root = WebApp.NewRoot();
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => WebApp.StartAsync(
            root, environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp }, extraArguments: ["--Dashboard:Storage=PostgreSql"]));
        WebApp.DeleteRoot(root);

        Assert.Contains("ConnectionStrings:Results is required when Dashboard:Storage is PostgreSql", error.Message, StringComparison.Ordinal);
    }

    private static async Task<long> ScalarAsync(NpgsqlConnection connection, string sql)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        return Convert.ToInt64(await command.ExecuteScalarAsync(), System.Globalization.CultureInfo.InvariantCulture);
    }
}
