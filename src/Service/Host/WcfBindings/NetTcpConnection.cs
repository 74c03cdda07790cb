using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// One accepted net.tcp connection of a wcfbindings variant, served in [MC-NMF]'s duplex session mode: the preamble
/// (version 1.0, mode duplex, a via whose path is the endpoint's, known encoding 0x08 binary session; on a TLS variant the
/// upgrade request <c>application/ssl-tls</c>, answered with an upgrade response and a TLS handshake with the host's server
/// certificate), preamble end → preamble ack; then sized envelope records, each read and answered with one
/// <see cref="MessageEncoder"/> per connection (WCF's binary session encoder, [MC-NBFSE]: its dictionary lives as long as
/// the connection), in order; an end record is answered with an end record and the connection closes.
/// </summary>
/// <remarks>
/// A framing error (a record of the wrong type, a version, mode, encoding, via or upgrade not served, a size over its quota,
/// a record cut short by the end of the stream) is answered with a fault record ([MC-NMF] 2.2.3.9) and the connection
/// closes; an envelope the encoder cannot read ends the connection without a record (the session dictionary's state is
/// then unknown, as WCF aborts such a session). Slow peers: the preamble and each envelope's bytes must arrive within the
/// slow-client time; an idle session between envelopes is closed after <see cref="NetTcpSettings.IdleTimeout"/>.
/// </remarks>
#pragma warning disable CA1001 // the streams are disposed by ServeAsync, which every connection runs once to its end
public sealed class NetTcpConnection
#pragma warning restore CA1001
{
    private const int MaxViaBytes = 2048;
    private const int MaxUpgradeNameBytes = 256;
    private const int EnvelopeHeaderRoom = 6;

    private readonly Stream _network;
    private readonly NetTcpSettings _settings;
    private readonly ILogger _logger;
    private Stream _stream;
    private BufferedStream _reader;
    private readonly byte[] _one = new byte[1];

    /// <summary>A connection over <paramref name="network"/> (owned: disposed when the connection ends).</summary>
    public NetTcpConnection(Stream network, NetTcpSettings settings, ILogger logger)
    {
        _network = _stream = network;
        _reader = new BufferedStream(network, 16 * 1024);
        _settings = settings;
        _logger = logger;
    }

    /// <summary>Serves the connection until the peer ends it, breaks the protocol, idles too long, or <paramref name="stopping"/> fires.</summary>
    public async Task ServeAsync(CancellationToken stopping)
    {
        var encoder = _settings.EncoderFactory.CreateSessionEncoder();
        try
        {
            using (var preamble = CancellationTokenSource.CreateLinkedTokenSource(stopping))
            {
                preamble.CancelAfter(_settings.SlowClientTimeout);
                await ReadPreambleAsync(preamble.Token);
            }

            while (await ServeNextRecordAsync(encoder, stopping))
            {
            }
        }
        catch (FramingException e)
        {
            _logger.LogDebug("net.tcp {Variant}: framing fault {Fault}: {Reason}", _settings.Variant, e.FaultUri, e.Message);
            await TryWriteAsync(NetFraming.FaultRecordOf(e.FaultUri));
        }
        catch (EndOfStreamException)
        {
            await TryWriteAsync(NetFraming.FaultRecordOf(NetFraming.Faults.InvalidRecordSequence));
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or AuthenticationException or ObjectDisposedException)
        {
            // The peer went away, was too slow, failed the TLS handshake, or the host stops: nothing to answer.
        }
        catch (Exception e) when (e is XmlException or CommunicationException or QuotaExceededException or ProtocolException)
        {
            _logger.LogDebug("net.tcp {Variant}: an envelope the encoder cannot read: {Reason}", _settings.Variant, e.Message);
        }
        finally
        {
            await _reader.DisposeAsync();
            await _stream.DisposeAsync();
            await _network.DisposeAsync();
        }
    }

    private async Task ReadPreambleAsync(CancellationToken cancellationToken)
    {
        Expect(await ReadByteAsync(cancellationToken), NetFraming.VersionRecord);
        var major = await ReadByteAsync(cancellationToken);
        var minor = await ReadByteAsync(cancellationToken);
        if (major != 1 || minor != 0)
        {
            throw new FramingException(NetFraming.Faults.UnsupportedVersion, $"version {major}.{minor}");
        }

        Expect(await ReadByteAsync(cancellationToken), NetFraming.ModeRecord);
        var mode = await ReadByteAsync(cancellationToken);
        if (mode != NetFraming.DuplexMode)
        {
            throw new FramingException(NetFraming.Faults.UnsupportedMode, $"mode {mode}");
        }

        Expect(await ReadByteAsync(cancellationToken), NetFraming.ViaRecord);
        var via = await ReadStringAsync(MaxViaBytes, NetFraming.Faults.ViaTooLong, cancellationToken);
        if (!Uri.TryCreate(via, UriKind.Absolute, out var viaUri) || !string.Equals(viaUri.AbsolutePath.TrimEnd('/'), _settings.Path, StringComparison.OrdinalIgnoreCase))
        {
            throw new FramingException(NetFraming.Faults.EndpointNotFound, $"via '{via}'");
        }

        var encodingRecord = await ReadByteAsync(cancellationToken);
        if (encodingRecord == NetFraming.ExtensibleEncodingRecord)
        {
            throw new FramingException(NetFraming.Faults.ContentTypeInvalid, "an extensible encoding; only the binary session encoding (0x08) is served");
        }

        Expect(encodingRecord, NetFraming.KnownEncodingRecord);
        var encoding = await ReadByteAsync(cancellationToken);
        if (encoding != NetFraming.BinarySessionEncoding)
        {
            throw new FramingException(NetFraming.Faults.ContentTypeInvalid, $"known encoding {encoding}");
        }

        var next = await ReadByteAsync(cancellationToken);
        if (next == NetFraming.UpgradeRequestRecord)
        {
            var upgrade = await ReadStringAsync(MaxUpgradeNameBytes, NetFraming.Faults.UpgradeInvalid, cancellationToken);
            if (_settings.ServerCertificate is null || upgrade != NetFraming.TlsUpgrade)
            {
                throw new FramingException(NetFraming.Faults.UpgradeInvalid, $"upgrade '{upgrade}'");
            }

            await WriteAsync(new[] { NetFraming.UpgradeResponseRecord }, cancellationToken);
            await UpgradeToTlsAsync(_settings.ServerCertificate, cancellationToken);
            next = await ReadByteAsync(cancellationToken);
        }
        else if (_settings.ServerCertificate is not null)
        {
            throw new FramingException(NetFraming.Faults.UpgradeInvalid, "this endpoint needs the upgrade application/ssl-tls");
        }

        Expect(next, NetFraming.PreambleEndRecord);
        await WriteAsync(new[] { NetFraming.PreambleAckRecord }, cancellationToken);
    }

    private async Task UpgradeToTlsAsync(X509Certificate2 certificate, CancellationToken cancellationToken)
    {
        var ssl = new SslStream(_network, leaveInnerStreamOpen: true);
        await ssl.AuthenticateAsServerAsync(new SslServerAuthenticationOptions
        {
            ServerCertificate = certificate,
            EnabledSslProtocols = SslProtocols.Tls12 | SslProtocols.Tls13,
            ClientCertificateRequired = _settings.ClientCertificateCheck is not null,
            CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
            // The host's CA alone decides (custom trust, not the system's roots): a missing or foreign certificate fails the handshake.
            RemoteCertificateValidationCallback = _settings.ClientCertificateCheck is not { } check
                ? null
                : (_, presented, _, _) => presented is not null && check(presented as X509Certificate2 ?? X509CertificateLoader.LoadCertificate(presented.GetRawCertData())),
        }, cancellationToken);
        _stream = ssl;
        _reader = new BufferedStream(ssl, 16 * 1024);
    }

    /// <summary>Reads one record after the preamble and answers it; false when the connection should close.</summary>
    private async Task<bool> ServeNextRecordAsync(MessageEncoder encoder, CancellationToken stopping)
    {
        int type;
        using (var idle = CancellationTokenSource.CreateLinkedTokenSource(stopping))
        {
            idle.CancelAfter(_settings.IdleTimeout);
            var read = await _reader.ReadAsync(_one, idle.Token);
            if (read == 0)
            {
                return false; // closed between messages without an end record: nothing to answer
            }

            type = _one[0];
        }

        if (type == NetFraming.EndRecord)
        {
            await WriteAsync(new[] { NetFraming.EndRecord }, stopping);
            return false;
        }

        if (type != NetFraming.SizedEnvelopeRecord)
        {
            throw new FramingException(NetFraming.Faults.InvalidRecordSequence, $"record type 0x{type:X2} after the preamble");
        }

        using var slow = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        slow.CancelAfter(_settings.SlowClientTimeout);
        var size = await ReadSizeAsync(slow.Token);
        if (size > _settings.MaxMessageBytes)
        {
            throw new FramingException(NetFraming.Faults.MaxMessageSizeExceeded, $"an envelope of {size} bytes, over the quota of {_settings.MaxMessageBytes}");
        }

        var buffer = _settings.Buffers.TakeBuffer(size);
        Message request;
        try
        {
            await _reader.ReadExactlyAsync(buffer.AsMemory(0, size), slow.Token);
            request = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, size), _settings.Buffers, encoder.ContentType);
        }
        catch
        {
            _settings.Buffers.ReturnBuffer(buffer);
            throw;
        }

        ArraySegment<byte> written;
        using (request)
        {
            using var reply = _settings.Dispatcher.Dispatch(request);
            written = encoder.WriteMessage(reply, int.MaxValue, _settings.Buffers, EnvelopeHeaderRoom);
        }

        try
        {
            // The record's type and size go into the room left before the envelope: one write per reply.
            var headerLength = 1 + NetFraming.SizeLength(written.Count);
            var start = written.Offset - headerLength;
            written.Array![start] = NetFraming.SizedEnvelopeRecord;
            NetFraming.WriteSize(written.Count, written.Array.AsSpan(start + 1));
            await _stream.WriteAsync(written.Array.AsMemory(start, headerLength + written.Count), stopping);
            await _stream.FlushAsync(stopping);
        }
        finally
        {
            _settings.Buffers.ReturnBuffer(written.Array!);
        }

        return true;
    }

    private static void Expect(byte actual, byte expected)
    {
        if (actual != expected)
        {
            throw new FramingException(NetFraming.Faults.InvalidRecordSequence, $"record type 0x{actual:X2} where 0x{expected:X2} belongs");
        }
    }

    private async Task<byte> ReadByteAsync(CancellationToken cancellationToken)
    {
        await _reader.ReadExactlyAsync(_one, cancellationToken);
        return _one[0];
    }

    /// <summary>A record size ([MC-NMF] 2.2.2): up to 5 bytes of 7 bits, least significant first, at most 2^31 − 1.</summary>
    private async Task<int> ReadSizeAsync(CancellationToken cancellationToken)
    {
        var value = 0;
        for (var i = 0; i < 5; i++)
        {
            var b = await ReadByteAsync(cancellationToken);
            if (i == 4 && (b & 0xF8) != 0)
            {
                throw new FramingException(NetFraming.Faults.InvalidRecordSequence, "a size over 2^31 - 1");
            }

            value |= (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0)
            {
                return value;
            }
        }

        throw new FramingException(NetFraming.Faults.InvalidRecordSequence, "a size of more than 5 bytes");
    }

    private async Task<string> ReadStringAsync(int quota, string faultOverQuota, CancellationToken cancellationToken)
    {
        var size = await ReadSizeAsync(cancellationToken);
        if (size > quota)
        {
            throw new FramingException(faultOverQuota, $"a string of {size} bytes, over the quota of {quota}");
        }

        var bytes = new byte[size];
        await _reader.ReadExactlyAsync(bytes, cancellationToken);
        return System.Text.Encoding.UTF8.GetString(bytes);
    }

    private async Task WriteAsync(byte[] bytes, CancellationToken cancellationToken)
    {
        await _stream.WriteAsync(bytes, cancellationToken);
        await _stream.FlushAsync(cancellationToken);
    }

    private async Task TryWriteAsync(byte[] bytes)
    {
        try
        {
            using var bounded = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await WriteAsync(bytes, bounded.Token);
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException or InvalidOperationException)
        {
            // The peer is gone; the connection closes anyway.
        }
    }
}

/// <summary>What every connection of one net.tcp variant shares.</summary>
/// <param name="Variant">The variant's name (for the log).</param>
/// <param name="Path">The endpoint's path without a trailing slash (<c>/benchmark</c>): a via with another path is EndpointNotFound.</param>
/// <param name="EncoderFactory">WCF's binary message encoder factory (<c>BinaryMessageEncodingBindingElement</c>, SOAP 1.2 + WS-Addressing 1.0).</param>
/// <param name="Buffers">The buffer pool of envelopes read and written.</param>
/// <param name="Dispatcher">Our dispatcher of the 17 operations.</param>
/// <param name="MaxMessageBytes">The largest envelope read (the host's request limit).</param>
/// <param name="SlowClientTimeout">Time allowed for the preamble (TLS handshake included) and for each envelope's bytes.</param>
/// <param name="IdleTimeout">Time a session may wait between envelopes.</param>
/// <param name="ServerCertificate">The TLS server certificate of a Transport variant; null for security None.</param>
/// <param name="ClientCertificateCheck">For client credential Certificate: true when a client certificate may connect
/// (<see cref="Security.SecurityMaterial.IsTrustedClientCertificate"/>); the TLS handshake then asks for one and fails
/// without a trusted one, as WCF's SSL stream upgrade does. Null: no client certificate is asked for.</param>
public sealed record NetTcpSettings(
    string Variant,
    string Path,
    MessageEncoderFactory EncoderFactory,
    BufferManager Buffers,
    BenchmarkDispatcher Dispatcher,
    int MaxMessageBytes,
    TimeSpan SlowClientTimeout,
    TimeSpan IdleTimeout,
    X509Certificate2? ServerCertificate,
    Func<X509Certificate2, bool>? ClientCertificateCheck = null);
