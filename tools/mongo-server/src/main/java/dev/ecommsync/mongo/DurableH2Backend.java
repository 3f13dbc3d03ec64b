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

/**
 * The H2 backend, except that the reply to a write command goes out only once the command's changes
 * are committed to the MVStore file and the file is synced to disk (decision 16, issue 16).
 *
 * <p>The plain {@link H2Backend} changes the MVStore's maps in memory and leaves the commit to H2's
 * background writer, about once a second: a write acknowledged with {@code j: true} was gone when the
 * process was killed within that second. Here every command that may write (all but the known
 * read-only ones) ends with a commit of the store and an fsync of the file before
 * {@link #handleCommand} returns its reply.
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
 *       that older data depends on; here the file is synced after each commit, and before it if H2's
 *       background writer wrote something since the last sync;</li>
 *   <li>it keeps old pages readable for a reader still walking an older version of a map; here each
 *       command registers the version it reads for as long as it runs, and H2 frees no chunk that a
 *       registered version still uses.</li>
 * </ul>
 *
 * <p>H2's background writer stays on: besides its periodic commit, now rarely needed, it rewrites and
 * moves half-empty chunks, which keeps the file about as small as before.
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

    private final MVStore store;
    private final OperationCounters operations = new OperationCounters();
    private final AtomicLong finishedWrites = new AtomicLong();
    private final Object commitLock = new Object();
    /** Tickets up to this one are committed and synced; guarded by commitLock. */
    private long durableWrites;
    /** The file store's write count at the last fsync; read and written under the store lock. */
    private long syncedWriteCount = -1;

    private DurableH2Backend(MVStore store) {
        super(store);
        this.store = store;
    }

    static DurableH2Backend open(String fileName) {
        MVStore store = new MVStore.Builder().fileName(fileName).open();
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
        return operations.addTo(super.getServerStatus());
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
                response = super.handleCommand(channel, databaseName, command, query);
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
            long covered = finishedWrites.get();
            // executeFilestoreOperation first waits for the background writer's chunk writes still under way
            store.executeFilestoreOperation(this::syncIfWritten);
            store.commit();
            store.executeFilestoreOperation(this::syncIfWritten);
            durableWrites = covered;
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
