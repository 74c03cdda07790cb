namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// The records of the .NET Message Framing Protocol ([MC-NMF] 2.2) that a duplex-session net.tcp server reads and writes:
/// record type bytes, the fault URIs of [MC-NMF] 2.2.3.9 and the size encoding (a 7-bit little-endian variable-length
/// integer of at most 5 bytes, [MC-NMF] 2.2.2). Written from the specification; no WCF type is involved.
/// </summary>
public static class NetFraming
{
    /// <summary>Version record (0x00): major, minor. Only 1.0 exists.</summary>
    public const byte VersionRecord = 0x00;

    /// <summary>Mode record (0x01): one mode byte.</summary>
    public const byte ModeRecord = 0x01;

    /// <summary>Via record (0x02): a sized UTF-8 URI.</summary>
    public const byte ViaRecord = 0x02;

    /// <summary>Known encoding record (0x03): one encoding byte.</summary>
    public const byte KnownEncodingRecord = 0x03;

    /// <summary>Extensible encoding record (0x04): a sized content type (refused here: only the binary session encoding is served).</summary>
    public const byte ExtensibleEncodingRecord = 0x04;

    /// <summary>Sized envelope record (0x06): a size, then that many bytes of one encoded message.</summary>
    public const byte SizedEnvelopeRecord = 0x06;

    /// <summary>End record (0x07): no more messages; answered with an end record, then the connection closes.</summary>
    public const byte EndRecord = 0x07;

    /// <summary>Fault record (0x08): a sized UTF-8 fault URI; the sender closes the connection after it.</summary>
    public const byte FaultRecord = 0x08;

    /// <summary>Upgrade request record (0x09): a sized protocol name, e.g. <c>application/ssl-tls</c>.</summary>
    public const byte UpgradeRequestRecord = 0x09;

    /// <summary>Upgrade response record (0x0A): the upgrade is accepted; the upgraded protocol starts after this byte.</summary>
    public const byte UpgradeResponseRecord = 0x0A;

    /// <summary>Preamble ack record (0x0B): the server accepts the preamble.</summary>
    public const byte PreambleAckRecord = 0x0B;

    /// <summary>Preamble end record (0x0C): the client's preamble is complete.</summary>
    public const byte PreambleEndRecord = 0x0C;

    /// <summary>Mode 0x02: duplex, several sized envelopes each way (what NetTcpBinding's buffered transfer uses).</summary>
    public const byte DuplexMode = 0x02;

    /// <summary>Known encoding 0x08: <c>application/soap+msbinsession1</c>, binary XML with a session dictionary ([MC-NBFSE]).</summary>
    public const byte BinarySessionEncoding = 0x08;

    /// <summary>The upgrade protocol of TLS (NetTcpBinding's Transport security with a certificate).</summary>
    public const string TlsUpgrade = "application/ssl-tls";

    /// <summary>The prefix of every framing fault URI.</summary>
    public const string FaultPrefix = "http://schemas.microsoft.com/ws/2006/05/framing/faults/";

    /// <summary>The largest size a record may state: 2^31 − 1 (5 bytes of 7 bits, the top 4 bits of the last byte zero).</summary>
    public const int MaxSize = int.MaxValue;

    /// <summary>Fault URIs sent before the server closes a connection.</summary>
    public static class Faults
    {
        /// <summary>A record arrived where the protocol does not allow it (wrong type, or bytes after an end record).</summary>
        public const string InvalidRecordSequence = FaultPrefix + "InvalidRecordSequence";

        /// <summary>A version other than 1.0.</summary>
        public const string UnsupportedVersion = FaultPrefix + "UnsupportedVersion";

        /// <summary>A mode other than duplex.</summary>
        public const string UnsupportedMode = FaultPrefix + "UnsupportedMode";

        /// <summary>An encoding other than the binary session encoding.</summary>
        public const string ContentTypeInvalid = FaultPrefix + "ContentTypeInvalid";

        /// <summary>A via this endpoint does not serve, or longer than the quota.</summary>
        public const string EndpointNotFound = FaultPrefix + "EndpointNotFound";

        /// <summary>A via longer than the quota.</summary>
        public const string ViaTooLong = FaultPrefix + "ViaTooLong";

        /// <summary>An envelope larger than the message size quota.</summary>
        public const string MaxMessageSizeExceeded = FaultPrefix + "MaxMessageSizeExceededFault";

        /// <summary>An upgrade this endpoint does not offer (TLS on an unsecured endpoint, anything but TLS), or a missing one on a TLS endpoint.</summary>
        public const string UpgradeInvalid = FaultPrefix + "UpgradeInvalid";
    }

    /// <summary>Writes <paramref name="value"/> (0..2^31−1) as a variable-length size into <paramref name="destination"/>; returns the bytes written (1-5).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative.</exception>
    public static int WriteSize(int value, Span<byte> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        var i = 0;
        var rest = (uint)value;
        while (rest >= 0x80)
        {
            destination[i++] = (byte)(rest | 0x80);
            rest >>= 7;
        }

        destination[i++] = (byte)rest;
        return i;
    }

    /// <summary>The number of bytes <see cref="WriteSize"/> writes for <paramref name="value"/>.</summary>
    public static int SizeLength(int value) => value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;

    /// <summary>A framing fault record of <paramref name="faultUri"/>: 0x08, size, UTF-8 text.</summary>
    public static byte[] FaultRecordOf(string faultUri)
    {
        var text = System.Text.Encoding.UTF8.GetBytes(faultUri);
        var record = new byte[1 + SizeLength(text.Length) + text.Length];
        record[0] = FaultRecord;
        var n = WriteSize(text.Length, record.AsSpan(1));
        text.CopyTo(record, 1 + n);
        return record;
    }
}

/// <summary>The peer broke [MC-NMF]: the server answers with a fault record of <see cref="FaultUri"/> and closes the connection.</summary>
/// <param name="faultUri">One of <see cref="NetFraming.Faults"/>.</param>
/// <param name="message">What was wrong, for the log.</param>
public sealed class FramingException(string faultUri, string message) : Exception(message)
{
    /// <summary>The fault URI sent in the fault record.</summary>
    public string FaultUri { get; } = faultUri;
}
