#include <string>
#include <vector>

namespace inventory {

class Shelf {
public:
    void add(const std::string& name) {
        names_.push_back(name);
    }

    std::size_t size() const {
        return names_.size(;
    }

private:
    std::vector<std::string> names_;
};

}  // namespace inventory
