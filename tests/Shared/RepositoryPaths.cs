namespace Dashboard.Tests.RealProcesses;

/// <summary>Where the solution's build outputs are, seen from a test assembly in <c>tests/&lt;Project&gt;/bin/&lt;Configuration&gt;/&lt;tfm&gt;/</c>.</summary>
public static class RepositoryPaths
{
    private static readonly DirectoryInfo TestOutput = new(AppContext.BaseDirectory);

    /// <summary>The build configuration the tests were built with (<c>Debug</c>, <c>Release</c>).</summary>
    public static string Configuration => TestOutput.Parent!.Name;

    /// <summary>The repository root (the folder of <c>Dashboard.sln</c>).</summary>
    public static string Root => TestOutput.Parent!.Parent!.Parent!.Parent!.Parent!.FullName;

    /// <summary>The runner's build output folder.</summary>
    public static string RunnerOutput => Path.Combine(Root, "src", "Runner", "bin", Configuration, "net10.0");

    /// <summary>The java driver built beside the runner (<c>drivers/java</c>).</summary>
    public static string JavaDriver => Path.Combine(RunnerOutput, "drivers", "java");

    /// <summary>The node driver's folder (its sources and node_modules).</summary>
    public static string NodeDriver => Path.Combine(Root, "src", "Runner", "Drivers", "node");
}
