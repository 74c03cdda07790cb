using System.CommandLine;
using Dashboard.Data;
using Dashboard.Data.Export;

namespace Dashboard.Runner.CommandLine;

/// <summary>
/// <c>Dashboard.Runner bundle --db FILE --run ID --out FILE</c>: writes a stored run as a result bundle (docs/web.md,
/// "Result bundles"), the same ZIP the dashboard's run page and <c>GET /api/runs/{id}/bundle</c> give, for a run measured
/// by the runner alone. Exit 0 on success, 2 when the database or run does not exist (the reason on stderr).
/// </summary>
public static class BundleCommand
{
    /// <summary>The reproduce command written into a bundle made here.</summary>
    public const string Reproduce = "Dashboard.Runner run --scenario scenario.json --db results.db   (or POST scenario.json to a dashboard's /api/runs)";

    /// <summary>The <c>bundle</c> command.</summary>
    public static Command Create()
    {
        var database = new Option<FileInfo>("--db") { Description = "Results database (SQLite file) the run is stored in.", Required = true };
        var run = new Option<int>("--run") { Description = "The run's id (the runner prints it; GET /api/runs lists them).", Required = true };
        var output = new Option<FileInfo>("--out") { Description = "Where the bundle goes (a .zip file; replaced if it exists).", Required = true };
        var command = new Command("bundle", "Write a stored run as a result bundle: scenario, environment, every level and raw sample, product version and commit, reproduce command.")
        {
            database, run, output,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var file = parse.GetRequiredValue(database);
            var id = parse.GetValue(run);
            if (!file.Exists)
            {
                await Console.Error.WriteLineAsync($"--db: {file.FullName} does not exist");
                return 2;
            }

            using var db = ResultsStore.Sqlite(file.FullName).Open();
            var target = parse.GetRequiredValue(output);
            try
            {
                await using (var stream = new FileStream(target.FullName, FileMode.Create, FileAccess.ReadWrite))
                {
                    await RunBundle.WriteAsync(db, id, stream, Reproduce, cancellationToken);
                }

                await Console.Out.WriteLineAsync($"run {id} written to {target.FullName} ({new FileInfo(target.FullName).Length:N0} bytes)");
                return 0;
            }
            catch (KeyNotFoundException)
            {
                File.Delete(target.FullName);
                await Console.Error.WriteLineAsync($"--run: {file.FullName} has no run {id}");
                return 2;
            }
        });
        return command;
    }
}
