package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The H2 backend, except that the reply to a write command goes out only once the command's changes
 * are committed to the MVStore file and the file is synced to disk (decision 16, issue 16), and a
 * commit never falls in the middle of a command.
 *
 * <p>The plain {@link H2Backend} changes the MVStore's maps in memory and leaves the commit to H2's
 * background writer, about once a second: a write acknowledged with {@code j: true} was gone when the
 * process was killed within that second. Here every command that may write (all but the known
 * read-only ones) ends with a commit of the store and an fsync of the file before
 * {@link #handleCommand} returns its reply.
 *
 * <p>Whole commands only: mongo-java-server writes a document and its index entries as separate map
 * changes (the document first, then each index). A commit taken between the two, by another command
 * or by H2's own writer, put on disk a document without its {@code _id} index entry; after a kill the
 * server answered an insert of that document with "Document with key ... already existed" instead of
 * a duplicate-key error, and a find by {@code _id} did not see it (the chaos suite's mongodb
 * scenario). So write commands run under the shared side of a read-write lock and a commit takes the
 * exclusive side, and H2 commits nothing by itself: its background writer and its commit on unsaved
 * memory are off.
 *
 * <p>Group commit: commands run on several Netty threads at once. A write command that has finished
 * takes a ticket; one thread at a time commits and syncs, and a commit that began after a command
 * finished covers it, so the commands queued behind that commit return without one of their own. At
 * most one commit and one fsync per write command, never one per document.
 *
 * <p>With a commit per write command the file gets a small chunk per command. H2 keeps the space of
 * chunks that are no longer used for a retention time (45 s by default) before reusing it, and at a
 * thousand writes a second the file grew by hundreds of megabytes. The retention time exists for two
 * reasons, both covered here, so it is 0:
 * <ul>
 *   <li>it gives the operating system time to write back what H2 wrote, before H2 overwrites space
 *       that older data depends on; here the file is synced after each commit;</li>
 *   <li>it keeps old pages readable for a reader still walking an older version of a map; here each
 *       command registers the version it reads for as long as it runs, and H2 frees no chunk that a
 *       registered version still uses.</li>
 * </ul>
 *
 * <p>The background writer also rewrote half-empty chunks; that is done here instead, at most once a
 * second, right after a commit and under the same exclusive lock, which keeps the file small.
 *
 * <p>Its databases are {@link LockingH2Database}s: commands that create the same collection at once
 * create it once ({@link CollectionCreationLocks}).
 */
final class DurableH2Backend extends H2Backend {

    /** Commands that never change the store; in lower case, as the server compares names case-insensitively. */
    private static final Set<String> READ_ONLY_COMMANDS = Set.of(
        "find", "getmore", "killcursors", "count", "distinct", "listcollections", "listindexes", "listdatabases",
        "dbstats", "collstats", "validate", "ismaster", "hello", "buildinfo", "ping", "serverstatus", "whatsmyuri",
        "getlasterror", "reseterror", "getlog", "hostinfo", "getcmdlineopts", "getfreemonitoringstatus",
        "connectionstatus", "replsetgetstatus", "endsessions");

    /** Chunks filled below this share are rewritten; H2's background writer used 90 too. */
    private static final int COMPACT_FILL_RATE = 90;
    /** At most this many bytes are rewritten by one compaction. */
    private static final int COMPACT_WRITE_BYTES = 16 * 1024 * 1024;
    private static final long COMPACT_INTERVAL_NANOS = 1_000_000_000L;

    private final MVStore store;
    /** Shared by write commands while they run; exclusive for a commit, so no commit splits a command. */
    private final ReadWriteLock commands = new ReentrantReadWriteLock();
    private final OperationCounters operations = new OperationCounters();
    private final AtomicLong finishedWrites = new AtomicLong();
    private final Object commitLock = new Object();
    /** Tickets up to this one are committed and synced; guarded by commitLock. */
    private long durableWrites;
    /** The file store's write count at the last fsync; read and written under the store lock. */
    private long syncedWriteCount = -1;
    /** When the last compaction ran; guarded by commitLock. */
    private long lastCompaction = System.nanoTime();

    private DurableH2Backend(MVStore store) {
        super(store);
        this.store = store;
    }

    static DurableH2Backend open(String fileName) {
        // no background writer and no commit on unsaved memory: only makeDurable commits
        MVStore store = new MVStore.Builder().fileName(fileName).autoCommitDisabled().autoCommitBufferSize(0).open();
        store.setRetentionTime(0);
        return new DurableH2Backend(store);
    }

    /** Called from H2Backend's constructor too (databases already in the file): uses no field of this class. */
    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new LockingH2Database(databaseName, getMvStore(), getCursorRegistry());
    }

    @Override
    public Document getServerStatus() {
        return DocumentsExamined.addTo(operations.addTo(super.getServerStatus()));
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        operations.count(command);
        MVStore.TxCounter readVersion = store.registerVersionUsage();
        try {
            if (isReadOnly(command, query)) {
                return super.handleCommand(channel, databaseName, command, query);
            }
            Document response;
            try {
                response = runWholly(() -> super.handleCommand(channel, databaseName, command, query));
            } catch (RuntimeException e) {
                // a failed command may have written part of its documents before it failed
                try {
                    makeDurable();
                } catch (RuntimeException commitFailure) {
                    e.addSuppressed(commitFailure);
                }
                throw e;
            }
            makeDurable();
            return response;
        } finally {
            store.deregisterVersionUsage(readVersion);
        }
    }

    private Document runWholly(Supplier<Document> writeCommand) {
        commands.readLock().lock();
        try {
            return writeCommand.get();
        } finally {
            commands.readLock().unlock();
        }
    }

    private static boolean isReadOnly(String command, Document query) {
        String name = command.toLowerCase(Locale.ROOT);
        if (name.equals("aggregate")) {
            return !writesOutput(query.get("pipeline"));
        }
        return READ_ONLY_COMMANDS.contains(name);
    }

    private static boolean writesOutput(Object pipeline) {
        if (!(pipeline instanceof List<?> stages)) {
            return true;
        }
        for (Object stage : stages) {
            if (!(stage instanceof Document document) || document.containsKey("$out") || document.containsKey("$merge")) {
                return true;
            }
        }
        return false;
    }

    /** Returns once everything this thread has changed is written to the file and synced. */
    private void makeDurable() {
        long ticket = finishedWrites.incrementAndGet();
        synchronized (commitLock) {
            if (durableWrites >= ticket) {
                return;
            }
            commands.writeLock().lock();
            try {
                long covered = finishedWrites.get();
                store.commit();
                compactNowAndThen();
                store.executeFilestoreOperation(this::syncIfWritten);
                durableWrites = covered;
            } finally {
                commands.writeLock().unlock();
            }
        }
    }

    /** Rewrites half-empty chunks at most once a second, as H2's background writer did; commits what it moved. */
    private void compactNowAndThen() {
        long now = System.nanoTime();
        if (now - lastCompaction < COMPACT_INTERVAL_NANOS) {
            return;
        }
        lastCompaction = now;
        if (store.compact(COMPACT_FILL_RATE, COMPACT_WRITE_BYTES)) {
            store.commit();
        }
    }

    private void syncIfWritten() {
        FileStore<?> fileStore = store.getFileStore();
        long writeCount = fileStore.getWriteCount();
        if (writeCount != syncedWriteCount) {
            fileStore.sync();
            syncedWriteCount = writeCount;
        }
    }
}
