using System.Runtime.CompilerServices;
using Microsoft.Playwright;

namespace Dashboard.Web.Tests.Support;

/// <summary>Playwright settings for every browser test of this assembly, set once when it loads.</summary>
internal static class PlaywrightDefaults
{
    /// <summary>
    /// Web-first assertions (<c>Expect(...)</c>) wait up to 60 s: a fresh dashboard's first circuit, or a page full of plotly
    /// charts, takes seconds on a busy 2-core machine. Set at load, not in a fixture: a test class without the shared
    /// browser fixture that runs first would otherwise get Playwright's 5 s (seen: AgentsTests failed so in CI).
    /// </summary>
    [ModuleInitializer]
    internal static void Initialize() => Assertions.SetDefaultExpectTimeout(60_000);
}
