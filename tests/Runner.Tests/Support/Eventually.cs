namespace Dashboard.Runner.Tests.Support;

/// <summary>Waits for a condition instead of sleeping a fixed time, so that a slow machine delays a test rather than failing it.</summary>
public static class Eventually
{
    /// <summary>Checks <paramref name="condition"/> every 20 ms until it holds or <paramref name="timeout"/> (default 30 s) has passed.</summary>
    /// <returns>Whether the condition held; the caller's assertion says what was expected.</returns>
    public static async Task<bool> HoldsAsync(Func<bool> condition, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(condition);
        using var cancellation = new CancellationTokenSource(timeout ?? TimeSpan.FromSeconds(30));
        while (!condition())
        {
            if (cancellation.IsCancellationRequested)
            {
                return false;
            }

            await Task.Delay(20, CancellationToken.None);
        }

        return true;
    }
}
