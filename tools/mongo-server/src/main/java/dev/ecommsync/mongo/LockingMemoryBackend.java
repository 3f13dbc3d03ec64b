package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

/** mongo-java-server's in-memory backend on {@link LockingMemoryDatabase}s (decision 16, "Creating collections"). */
final class LockingMemoryBackend extends MemoryBackend {

    private final OperationCounters operations = new OperationCounters();
    private final CommandStats commandStats = new CommandStats();

    @Override
    public Document getServerStatus() {
        Document status = DocumentsExamined.addTo(operations.addTo(super.getServerStatus()));
        status.put("ecommCommandStats", commandStats.toDocuments());
        return status;
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        operations.count(command);
        long started = System.nanoTime();
        Document result = null;
        try {
            result = super.handleCommand(channel, databaseName, command, query);
            return result;
        } finally {
            commandStats.add(databaseName, command, query, result, System.nanoTime() - started);
        }
    }

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new LockingMemoryDatabase(databaseName, getCursorRegistry());
    }
}
