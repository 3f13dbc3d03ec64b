package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;

/** mongo-java-server's in-memory backend on {@link LockingMemoryDatabase}s (decision 16, "Creating collections"). */
final class LockingMemoryBackend extends MemoryBackend {

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new LockingMemoryDatabase(databaseName, getCursorRegistry());
    }
}
