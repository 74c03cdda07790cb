using System.Runtime.CompilerServices;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// Keeps the test host's thread pool from starving the engine under test. On this 2-core machine the pool starts with
/// two worker threads, and the test host blocks pool threads of its own at start-up; a level's Task.Delay
/// continuations then waited for the pool's thread injection (two steps of about 0.5 s: windows of 0.95–1.0 s instead
/// of 0.1 s, in 5 of 15 runs of a single test). Whether the runner process needs the same is for its first real client
/// driver to measure: a client that blocks pool threads (a synchronous channel open) would starve it in the same way.
/// </summary>
internal static class TestHostThreadPool
{
    [ModuleInitializer]
    internal static void RaiseMinimumWorkerThreads()
    {
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, 16), Math.Max(completionPorts, 16));
    }
}
