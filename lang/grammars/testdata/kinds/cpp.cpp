#include <vector>
namespace demo {
template <typename T>
class Box : public Base {
 public:
  explicit Box(T v) : value_(v) {}
  T get() const override { return value_; }
  virtual ~Box() = default;
 private:
  T value_;
};
}  // namespace demo
auto add = [](int a, int b) -> int { return a + b; };
int main() {
  std::vector<int> xs{1, 2, 3};
  for (auto &x : xs) { x *= 2; }
  auto p = std::make_unique<demo::Box<int>>(3);
  try { throw std::runtime_error("x"); } catch (const std::exception &e) { return 1; }
  return p->get() + add(1, 2);
}
