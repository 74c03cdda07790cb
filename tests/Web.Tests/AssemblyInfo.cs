// Each test class starts real dashboards (and Chromium); on a 2-core machine they run one class at a time.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

// POSIX signals, /proc and shell scripts: the tests run where the dashboard runs.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
