#include "runtime/history/result_store.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}
std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ResultStoreTest, KeepsAFileByContentAndPutsItBack) {
  TempDir dir;
  ResultStore store(dir / "store");
  Write(dir / "out 1.txt", "forty two\n");
  auto put = store.Put(dir / "out 1.txt");
  ASSERT_TRUE(put.ok()) << put.status().message();
  EXPECT_TRUE(IsContentId(put->content));
  EXPECT_EQ(put->size, 10);
  auto same = ResultStore::Identify(dir / "out 1.txt");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->content, put->content);
  // The original may go: the store keeps the bytes.
  std::filesystem::remove(dir / "out 1.txt");
  ReuseOutput out{1, "out 1.txt", put->content, put->size, put->mtime_ns};
  EXPECT_TRUE(store.Holds(out));
  ASSERT_TRUE(store.Materialize(put->content, dir / "again.txt").ok());
  EXPECT_EQ(Read(dir / "again.txt"), "forty two\n");
  struct stat st {};
  ASSERT_EQ(::stat(store.dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u) << "the store is private";
}

TEST(ResultStoreTest, SameBytesAreStoredOnce) {
  TempDir dir;
  ResultStore store(dir / "store");
  Write(dir / "a", "same");
  Write(dir / "b", "same");
  Write(dir / "c", "other");
  ASSERT_TRUE(store.Put(dir / "a").ok());
  ASSERT_TRUE(store.Put(dir / "b").ok());
  ASSERT_TRUE(store.Put(dir / "c").ok());
  EXPECT_EQ(store.List().size(), 2u);
}

TEST(ResultStoreTest, AFileChangedInPlaceIsNoLongerHeld) {
  TempDir dir;
  ResultStore store(dir / "store");
  Write(dir / "out", "result\n");
  auto put = store.Put(dir / "out");
  ASSERT_TRUE(put.ok());
  ReuseOutput out{0, "out", put->content, put->size, put->mtime_ns};
  ASSERT_TRUE(store.Holds(out));
  // The store's file is a hard link of the output: an edit in place (same
  // size) reaches it, and must not be reused.
  struct timespec later[2] = {{0, UTIME_OMIT},
                              {put->mtime_ns / 1000000000 + 5, 0}};
  Write(dir / "out", "RESULT\n");
  ASSERT_EQ(::utimensat(AT_FDCWD, (dir / "out").c_str(), later, 0), 0);
  EXPECT_FALSE(store.Holds(out));
  // Deleted from the store: not held either (what it holds now first).
  out.mtime_ns = StampOf(store.PathOf(out.content)).mtime_ns;
  ASSERT_TRUE(store.Holds(out));
  ASSERT_TRUE(store.Remove(put->content).ok());
  EXPECT_FALSE(store.Holds(out));
}

TEST(ResultStoreTest, MissingAndOddInputsAreErrors) {
  TempDir dir;
  ResultStore store(dir / "store");
  EXPECT_EQ(store.Put(dir / "none").status().code(), Status::Code::kNotFound);
  EXPECT_FALSE(store.Put(dir.path()).ok());
  EXPECT_EQ(store.PathOf("s:absent"), "");
  EXPECT_FALSE(store.Materialize("../../etc/passwd", dir / "x").ok());
}

TEST(CachedHashTest, HoldsOnlyForTheSameFileHashedWellAfterItChanged) {
  TempDir dir;
  Write(dir / "in", "data\n");
  FileStamp stamp = StampOf(dir / "in");
  ASSERT_TRUE(stamp.exists);
  const double changed = static_cast<double>(stamp.ctime_ns) / 1e9;
  FileHash cached{dir / "in", stamp, ContentId(std::string(32, 'a'), 5),
                  changed + 2};
  EXPECT_TRUE(CachedHashHolds(cached, stamp));
  // Hashed within a second of its last change: a write in the same clock
  // tick could have left the times as they were.
  FileHash racy = cached;
  racy.hashed = changed + 0.5;
  EXPECT_FALSE(CachedHashHolds(racy, stamp));
  // Any fact differing, or no file.
  for (auto edit : {+[](FileStamp& s) { s.size += 1; },
                    +[](FileStamp& s) { s.mtime_ns += 1; },
                    +[](FileStamp& s) { s.ctime_ns += 1; },
                    +[](FileStamp& s) { s.inode += 1; },
                    +[](FileStamp& s) { s.exists = false; }}) {
    FileStamp now = stamp;
    edit(now);
    EXPECT_FALSE(CachedHashHolds(cached, now));
  }
  // Rewritten in place with the same size and its modification time put
  // back, right after a hash: whether or not the clock ticked between the
  // two (the times may be equal), the hash does not hold.
  const double now = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  FileHash fresh{dir / "in", StampOf(dir / "in"),
                 ContentId(std::string(32, 'a'), 5), now};
  struct timespec restore[2] = {
      {0, UTIME_OMIT},
      {fresh.stamp.mtime_ns / 1000000000, fresh.stamp.mtime_ns % 1000000000}};
  Write(dir / "in", "DATA\n");
  ASSERT_EQ(::utimensat(AT_FDCWD, (dir / "in").c_str(), restore, 0), 0);
  FileStamp rewritten = StampOf(dir / "in");
  ASSERT_EQ(rewritten.size, fresh.stamp.size);
  ASSERT_EQ(rewritten.mtime_ns, fresh.stamp.mtime_ns);
  EXPECT_FALSE(CachedHashHolds(fresh, rewritten));
  EXPECT_FALSE(StampOf(dir / "none").exists);
  EXPECT_FALSE(StampOf(dir.path()).exists) << "a directory is no file";
}

ReuseEntry Entry(std::string key, std::vector<std::string> contents) {
  ReuseEntry e;
  e.key = std::move(key);
  for (auto& c : contents) e.outputs.push_back({0, "", c, 0, 0});
  return e;
}

TEST(StoreCollectionTest, UnnamedFilesGoThenTheLeastRecentlyUsed) {
  std::string a = ContentId(std::string(32, 'a'), 100);
  std::string b = ContentId(std::string(32, 'b'), 100);
  std::string c = ContentId(std::string(32, 'c'), 100);
  std::string orphan = ContentId(std::string(32, 'd'), 50);
  std::vector<StoredFile> files = {{a, 100}, {b, 100}, {c, 100}, {orphan, 50}};
  // Least recently used first; `shared` is used by the newest entry too.
  std::vector<ReuseEntry> entries = {Entry("old", {a, c}), Entry("mid", {b}),
                                     Entry("new", {c})};
  StoreCollection all = PlanStoreCollection(entries, files, 1000);
  EXPECT_EQ(all.remove_contents, std::vector<std::string>{orphan});
  EXPECT_TRUE(all.drop_keys.empty());
  EXPECT_EQ(all.bytes_before, 350u);
  EXPECT_EQ(all.bytes_after, 300u);

  StoreCollection some = PlanStoreCollection(entries, files, 200);
  EXPECT_EQ(some.drop_keys, std::vector<std::string>{"old"});
  // c stays: "new" names it.
  EXPECT_EQ(some.remove_contents, (std::vector<std::string>{orphan, a}));
  EXPECT_EQ(some.bytes_after, 200u);

  // An entry whose file is gone is dropped whatever the limit.
  files.erase(files.begin() + 1);
  StoreCollection stale = PlanStoreCollection(entries, files, 1000);
  EXPECT_EQ(stale.drop_keys, std::vector<std::string>{"mid"});
}

}  // namespace
}  // namespace gs
