using System.Diagnostics;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Web.Tests.Scripts;

/// <summary>
/// <c>scripts/setup.sh</c>, the first thing <c>./run.sh</c> and <c>./test.sh</c> do, when a package registry cannot be
/// reached (issue #36, finding 12: <c>npm ci</c> failed after two minutes with <c>EAI_AGAIN</c> and nothing said what to
/// do). The real script, copied into a folder laid out as the repository is where its step reads it, runs one step with
/// that step's registry at an address that refuses connections (127.0.0.1 port 1): it must name the step, the registry
/// and what follows. No network is needed. The debian step is not run here: it would install packages as root.
/// </summary>
public sealed class SetupScriptTests : IDisposable
{
    private const string Refusing = "http://127.0.0.1:1/";
    private readonly string _root = Directory.CreateTempSubdirectory("setup-script-").FullName;

    public SetupScriptTests()
    {
        Directory.CreateDirectory(Path.Combine(_root, "scripts"));
        File.Copy(Path.Combine(RepositoryPaths.Root, "scripts", "setup.sh"), Path.Combine(_root, "scripts", "setup.sh"));
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    [Fact]
    public async Task Npm_RegistryRefuses_NamesTheStepTheRegistryAndThatOnlyTheNodeClientIsMissing()
    {
        // The node driver's package files without node_modules: the step would run npm ci.
        var node = Path.Combine(_root, "src", "Runner", "Drivers", "node");
        Directory.CreateDirectory(node);
        foreach (var file in new[] { "package.json", "package-lock.json" })
        {
            File.Copy(Path.Combine(RepositoryPaths.NodeDriver, file), Path.Combine(node, file));
        }

        var (exit, stderr) = await SetupAsync("npm", new() { ["npm_config_registry"] = Refusing });

        Assert.Equal(0, exit); // the other steps and the build go on without the node client
        Assert.Contains("the npm step (npm ci in src/Runner/Drivers/node: the node client driver's packages)", stderr, StringComparison.Ordinal);
        Assert.Contains($"needs the npm registry ({Refusing}), which could not be reached", stderr, StringComparison.Ordinal);
        Assert.Contains("the 'node' client technology will be unavailable", stderr, StringComparison.Ordinal);
        Assert.Contains("(scripts/setup.sh npm)", stderr, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(node, "node_modules")));
    }

    [Fact]
    public async Task NuGet_SourceRefuses_NamesTheStepAndTheSourceAndStops()
    {
        // A solution whose one project needs a package that no local cache holds, from the only source: one that refuses
        // (HTTPS: NuGet refuses an HTTP source before it connects).
        const string source = "https://127.0.0.1:1/v3/index.json";
        File.WriteAllText(Path.Combine(_root, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="refusing" value="{source}" />
              </packageSources>
            </configuration>
            """);
        Directory.CreateDirectory(Path.Combine(_root, "Probe"));
        File.WriteAllText(Path.Combine(_root, "Probe", "Probe.csproj"), """
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
              <ItemGroup><PackageReference Include="Dashboard.SetupProbe.NotInAnyCache" Version="1.0.0" /></ItemGroup>
            </Project>
            """);
        File.WriteAllText(Path.Combine(_root, "Dashboard.sln"), """
            Microsoft Visual Studio Solution File, Format Version 12.00
            Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "Probe", "Probe\Probe.csproj", "{6F1C8D2A-3B4E-4C5D-8E9F-0A1B2C3D4E5F}"
            EndProject
            Global
                GlobalSection(SolutionConfigurationPlatforms) = preSolution
                    Debug|Any CPU = Debug|Any CPU
                EndGlobalSection
                GlobalSection(ProjectConfigurationPlatforms) = postSolution
                    {6F1C8D2A-3B4E-4C5D-8E9F-0A1B2C3D4E5F}.Debug|Any CPU.ActiveCfg = Debug|Any CPU
                    {6F1C8D2A-3B4E-4C5D-8E9F-0A1B2C3D4E5F}.Debug|Any CPU.Build.0 = Debug|Any CPU
                EndGlobalSection
            EndGlobal
            """);

        var (exit, stderr) = await SetupAsync("nuget", []);

        Assert.Equal(1, exit); // nothing builds without the packages: run.sh and test.sh stop here
        Assert.Contains("the nuget step (dotnet restore Dashboard.sln: the NuGet packages of every project)", stderr, StringComparison.Ordinal);
        Assert.Contains($"needs the NuGet registry ({source}), which could not be reached", stderr, StringComparison.Ordinal);
        Assert.Contains("(scripts/setup.sh nuget)", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnknownStep_RefusedNamingTheSteps()
    {
        var (exit, stderr) = await SetupAsync("npn", []);

        Assert.Equal(2, exit);
        Assert.Contains("unknown step 'npn' (the steps are debian, npm and nuget)", stderr, StringComparison.Ordinal);
    }

    // Runs the copied setup.sh with STEP and the environment changes; its exit code and standard error.
    private async Task<(int Exit, string Stderr)> SetupAsync(string step, Dictionary<string, string> environment)
    {
        var start = new ProcessStartInfo("bash")
        {
            ArgumentList = { Path.Combine(_root, "scripts", "setup.sh"), step },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = _root,
        };
        start.Environment["DOTNET_NOLOGO"] = "1";
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"setup.sh {step} did not end within 3 minutes; its output: {await stdout}{await stderr}");
        }

        await stdout;
        return (process.ExitCode, await stderr);
    }
}
