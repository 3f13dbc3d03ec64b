package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

/** mongo-java-server's in-memory backend on {@link LockingMemoryDatabase}s (decision 16, "Creating collections"). */
final class LockingMemoryBackend extends MemoryBackend {

    private final OperationCounters operations = new OperationCounters();

    @Override
    public Document getServerStatus() {
        return operations.addTo(super.getServerStatus());
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        operations.count(command);
        return super.handleCommand(channel, databaseName, command, query);
    }

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new LockingMemoryDatabase(databaseName, getCursorRegistry());
    }
}
