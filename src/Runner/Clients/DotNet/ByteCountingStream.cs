namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// Wraps a connection's socket stream and counts the bytes read and written through it: the bytes on the wire
/// of every request and response on that connection (HTTP headers and framing included; below TLS when TLS is
/// used, so TLS records are counted too). One writer and one reader at a time, as a connection has.
/// </summary>
public sealed class ByteCountingStream(Stream inner) : Stream
{
    private long _read;
    private long _written;

    /// <summary>Bytes read from the socket so far.</summary>
    public long BytesRead => Interlocked.Read(ref _read);

    /// <summary>Bytes written to the socket so far.</summary>
    public long BytesWritten => Interlocked.Read(ref _written);

    /// <inheritdoc />
    public override bool CanRead => inner.CanRead;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => inner.CanWrite;

    /// <inheritdoc />
    public override long Length => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    /// <inheritdoc />
    public override void Flush() => inner.Flush();

    /// <inheritdoc />
    public override Task FlushAsync(CancellationToken cancellationToken) => inner.FlushAsync(cancellationToken);

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => Counted(inner.Read(buffer, offset, count));

    /// <inheritdoc />
    public override int Read(Span<byte> buffer) => Counted(inner.Read(buffer));

    /// <inheritdoc />
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Counted(await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false));

    /// <inheritdoc />
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count)
    {
        Interlocked.Add(ref _written, count);
        inner.Write(buffer, offset, count);
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        Interlocked.Add(ref _written, buffer.Length);
        inner.Write(buffer);
    }

    /// <inheritdoc />
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        // Counted when handed to the socket, not when the write completes: HTTP/2 writes on its own loop, and the reply
        // can arrive (and the call end) before that loop's continuation runs.
        Interlocked.Add(ref _written, buffer.Length);
        await inner.WriteAsync(buffer, cancellationToken).ConfigureAwait(false);
    }

    /// <inheritdoc />
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private int Counted(int read)
    {
        Interlocked.Add(ref _read, read);
        return read;
    }
}
